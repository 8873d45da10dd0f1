/**
 * docs/guides/payment-files.md shows a worked pain.001 and its pain.002: both must be what the
 * fixtures and the writer produce today, valid by Debian's xmllint, and the pain.001 readable.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, expect, it } from 'vitest';
import { parsePain001 } from '../../src/domain/payment-files/pain001.ts';
import { buildPain002 } from '../../src/domain/payment-files/pain002.ts';
import { EXAMPLE, EXAMPLE_REPORT, pain001 } from './fixtures.ts';
import { ensureXmllint, xmllintSchema } from './xmllint.ts';

const GUIDE = readFileSync(new URL('../../../../docs/guides/payment-files.md', import.meta.url), 'utf8');

/** The fenced XML after `<!-- example: name -->`. */
function example(name: string): string {
  const match = new RegExp(`<!-- example: ${name.replace('.', '\\.')} -->\\n\`\`\`xml\\n([\\s\\S]*?)\\n\`\`\``).exec(GUIDE);
  if (!match?.[1]) throw new Error(`The guide has no ${name} example`);
  return `${match[1]}\n`;
}

beforeAll(() => {
  ensureXmllint();
}, 120_000);

it('shows the pain.001 the fixtures build, valid and readable', () => {
  const xml = example('pain.001');
  expect(xml).toBe(pain001(EXAMPLE));
  expect(xmllintSchema(xml, 'pain.001.001.09').ok).toBe(true);
  expect(parsePain001(xml).instructions.map((instruction) => instruction.endToEndId)).toEqual([
    'INV-2026-0415',
    'INV-2026-0416',
    'PO-88231',
  ]);
});

it('shows the pain.002 the writer builds for it, valid', () => {
  const xml = example('pain.002');
  expect(xml).toBe(buildPain002(EXAMPLE_REPORT));
  expect(xmllintSchema(xml, 'pain.002.001.10').ok).toBe(true);
});
