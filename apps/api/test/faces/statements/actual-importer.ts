/**
 * Actual Budget's own file importer (loot-core's parse-file: ofx2json for `.ofx`, xmlcamt2json for
 * camt `.xml`), from its npm package `@actual-app/api`, installed on first use by
 * scripts/ensure-actual-importer.sh. Each parse runs in a child Node process — Actual's engine keeps
 * global state once started — through the same handler Actual's import dialog calls,
 * `transactions-parse-file`, with the dialog's default options.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = new URL('../../../../../scripts/ensure-actual-importer.sh', import.meta.url).pathname;

/** The folder where @actual-app/api is installed (installs it the first time). */
export function ensureActualImporter(): string {
  const out = execFileSync('bash', [SCRIPT], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], timeout: 900_000 });
  return out.trim().split('\n').at(-1) ?? '';
}

export interface ActualTransaction {
  /** A decimal number, negative for money out (as Actual's parser returns it). */
  amount: number;
  date: string;
  imported_id?: string;
  payee_name: string | null;
  notes: string | null;
}

const RUNNER = `
const [dir, file] = process.argv.slice(1);
const api = require(require.resolve('@actual-app/api', { paths: [dir] }));
api.init({ dataDir: require('node:path').dirname(file), verbose: false })
  .then((lib) => lib.send('transactions-parse-file', { filepath: file, options: {} }))
  .then((result) => { process.stdout.write(JSON.stringify(result)); process.exit(0); })
  .catch((error) => { console.error(error); process.exit(1); });
`;

/** Actual's parse of a statement file (`extension` picks the parser, as Actual's import dialog does). */
export function actualParse(dir: string, bytes: Buffer, extension: 'ofx' | 'xml') {
  const work = mkdtempSync(join(tmpdir(), 'actual-import-'));
  try {
    const file = join(work, `statement.${extension}`);
    writeFileSync(file, bytes);
    const out = execFileSync(process.execPath, ['-e', RUNNER, dir, file], { encoding: 'utf8', timeout: 60_000 });
    return JSON.parse(out) as { errors: { message: string; internal?: string }[]; transactions: ActualTransaction[] };
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
