/**
 * Debian's AqBanking (`aqbanking-cli`, package aqbanking-tools) as an importer of our statement
 * files: installed on first use by scripts/ensure-aqbanking.sh, run with a throwaway config dir.
 * Profiles and listing templates as STACK-NOTES "Part three" records them.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SCRIPT = new URL('../../../../../scripts/ensure-aqbanking.sh', import.meta.url).pathname;

export function ensureAqbanking(): void {
  execFileSync('bash', [SCRIPT], { stdio: 'inherit' });
}

/** The import options, and the type AqBanking gives the file's closing balance (MT940's `:62F:` is `noted`). */
const IMPORTERS = {
  camt: { args: ['--importer=xml', '--profile=camt_053_001_04'], balanceType: 'booked' },
  camt052: { args: ['--importer=xml', '--profile=camt_052_001_02'], balanceType: 'booked' },
  mt940: { args: ['--importer=swift', '--profile=SWIFT-MT940'], balanceType: 'noted' },
} as const;

export interface Imported {
  /** Each transaction's amount in minor units, in file order. */
  amounts: number[];
  /** The last balance AqBanking lists, in minor units. */
  closing: number;
  raw: { transactions: string; balances: string };
}

export function aqbankingImport(bytes: Buffer, kind: keyof typeof IMPORTERS): Imported {
  return withImported(bytes, kind, (cli, context) => {
    const transactions = cli('listtrans', '-c', context, '-T', '$(valueAsString)\t$(dateAsString)');
    const balances = cli('listbal', '-c', context, `--balanceType=${IMPORTERS[kind].balanceType}`);
    return {
      amounts: transactions
        .trim()
        .split('\n')
        .filter(Boolean)
        .map((line) => minor(line.split('\t')[0] ?? '')),
      closing: lastBalance(balances),
      raw: { transactions, balances },
    };
  });
}

/**
 * AqBanking's own values, exact and with their currency (`$(value)`: "-1/1000:KWD"): its
 * `valueAsString` prints two decimals whatever the currency, so three-decimal amounts need these.
 */
export function aqbankingValues(bytes: Buffer, kind: keyof typeof IMPORTERS): { transactions: string[]; balances: string[] } {
  return withImported(bytes, kind, (cli, context) => {
    const lines = (text: string) => text.trim().split('\n').filter(Boolean);
    return {
      transactions: lines(cli('listtrans', '-c', context, '-T', '$(value)')),
      balances: lines(cli('listbal', '-c', context, `--balanceType=${IMPORTERS[kind].balanceType}`, '-T', '$(value)')),
    };
  });
}

/** Imports the file into a throwaway context and runs `read` on it. */
function withImported<T>(
  bytes: Buffer,
  kind: keyof typeof IMPORTERS,
  read: (cli: (...args: string[]) => string, context: string) => T,
): T {
  const dir = mkdtempSync(join(tmpdir(), 'aqb-'));
  try {
    const file = join(dir, 'statement');
    const context = join(dir, 'statement.ctx');
    writeFileSync(file, bytes);
    const cli = (...args: string[]) =>
      execFileSync('aqbanking-cli', ['-D', join(dir, 'config'), '-n', ...args], {
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      });
    cli('import', ...IMPORTERS[kind].args, '-f', file, '-c', context);
    return read(cli, context);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** "-123.45:PLN" or "-12345/100:PLN" → minor units. */
function minor(value: string): number {
  const amount = value.split(':')[0] ?? '';
  const fraction = /^(-?\d+)\/(\d+)$/.exec(amount);
  if (fraction) return Math.round((Number(fraction[1]) / Number(fraction[2])) * 100);
  return Math.round(Number(amount) * 100);
}

/** `listbal` prints `date<TAB>balance<TAB>IBAN` per balance of the type asked; the last one is the closing. */
function lastBalance(listing: string): number {
  const last = listing.trim().split('\n').at(-1) ?? '';
  return minor(last.split('\t')[1] ?? 'NaN');
}
