/**
 * The hardware baseline: pgbench's built-in TPC-B-like script (update balances, insert history)
 * against the same server with the same client count. TPC-B is a bank benchmark too.
 */
import { execFileSync } from 'node:child_process';

export function pgbenchBinary(): string {
  for (const candidate of ['pgbench', '/usr/lib/postgresql/15/bin/pgbench']) {
    try {
      execFileSync(candidate, ['--version'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // try the next one
    }
  }
  throw new Error('pgbench not found: install postgresql-client (apt-get install -y postgresql-client)');
}

export function runPgbench(url: string, clients: number, seconds: number): number {
  const binary = pgbenchBinary();
  execFileSync(binary, ['-i', '-q', '-s', String(clients), url], { stdio: 'ignore' });
  // The default (simple) query protocol, like our driver's queries, so the comparison is like for like.
  const output = execFileSync(binary, ['-c', String(clients), '-j', '2', '-T', String(seconds), url], {
    encoding: 'utf8',
  });
  const tps = /tps = ([\d.]+)/.exec(output)?.[1];
  if (!tps) throw new Error(`could not read pgbench output:\n${output}`);
  return Math.round(Number(tps));
}
