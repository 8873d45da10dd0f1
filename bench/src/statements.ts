/**
 * `pnpm --filter @sandbank/bench statements`: a year's camt.053 of an account with 10,000
 * transactions, streamed, against the JSON pull of the same rows (`statement-bench.ts` says how).
 * Prints a line and the JSON; uses BENCH_DATABASE_URL's server, or the embedded one on
 * BENCH_PG_PORT (default 54373 here).
 */

import { startPostgres } from './stack.ts';
import { measureStatements } from './statement-bench.ts';

process.env.BENCH_PG_PORT ??= '54373';
const server = await startPostgres();
try {
  console.log(JSON.stringify(await measureStatements(server)));
} finally {
  await server.stop();
}
