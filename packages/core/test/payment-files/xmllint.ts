/**
 * Debian's `xmllint` (libxml2-utils), installed on first use by scripts/ensure-xmllint.sh: the
 * validator and XPath reader the payment-file tests trust instead of Sandbank's own code.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

const SCRIPT = new URL('../../../../scripts/ensure-xmllint.sh', import.meta.url).pathname;
const XSD_DIR = new URL('../../src/domain/payment-files/xsd/', import.meta.url).pathname;

/** Installs xmllint when missing (once; fast when present) and returns its path. */
export function ensureXmllint(): string {
  return execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }).trim();
}

function withFile<T>(xml: string, run: (file: string) => T): T {
  const dir = mkdtempSync(path.join(tmpdir(), 'sandbank-xml-'));
  try {
    const file = path.join(dir, 'document.xml');
    writeFileSync(file, xml);
    return run(file);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** `xmllint --noout --nonet --schema <official XSD>`: its exit status and what it printed. */
export function xmllintSchema(xml: string, message: string): { ok: boolean; output: string } {
  return withFile(xml, (file) => {
    const run = spawnSync('xmllint', ['--noout', '--nonet', '--schema', path.join(XSD_DIR, `${message}.xsd`), file], {
      encoding: 'utf8',
    });
    return { ok: run.status === 0, output: `${run.stdout}${run.stderr}` };
  });
}

/** `xmllint --xpath`: the string value of `expression` (use `local-name()`: ISO 20022 documents have a default namespace). */
export function xmllintXpath(xml: string, expression: string): string {
  return withFile(xml, (file) => execFileSync('xmllint', ['--nonet', '--xpath', expression, file], { encoding: 'utf8' })).replace(
    /\n$/,
    '',
  );
}

/** `/*[local-name()='A']/*[local-name()='B']…` from `A/B/…`, for namespaced documents. */
export const localPath = (steps: string) =>
  steps
    .split('/')
    .map((step) => {
      const [name, index] = step.split('[');
      return `*[local-name()='${name}']${index ? `[${index}` : ''}`;
    })
    .join('/');
