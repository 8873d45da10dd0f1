/**
 * A year's statement of an account with 10,000 transactions (issue 31), streamed. One production API process (the bundle, `pnpm start`'s flags)
 * on a fresh database; the account's history is seeded in SQL over the last 360 days (half with a
 * merchant, text with `&`, `<` and Polish letters). Then, in turns (STATEMENT_TURNS, 3), each timed
 * from the request to the last byte, with the API's peak RSS during the request (VmHWM, reset before
 * each request through /proc/<pid>/clear_refs) above its RSS just before:
 *   - the reference: the same 10,000 transactions pulled as JSON, `GET /api/owner/:owner/transactions`,
 *     50 pages of 200 one after another (what an integration does instead of a statement);
 *   - `GET /api/owner/:owner/accounts/:id/statement?format=camt.053` for the whole year;
 * and once each after: camt.052, MT940 (cp852), OFX 2.2, OFX 1.02 and CSV. Medians of the turns;
 * time as a ratio to the reference.
 * Run alone by `statements.ts` and at the end of `pnpm bench` (`bench.ts`), on port STATEMENT_PORT (3961).
 */
import fs from 'node:fs';
import { withClient } from '@sandbank/testing';
import { createApiKey, post } from './seed.ts';
import { APP_ENTRY, freshDatabase, type Server, spawnApp, waitFor200 } from './stack.ts';

const PORT = Number(process.env.STATEMENT_PORT ?? 3961);
const TURNS = Number(process.env.STATEMENT_TURNS ?? 3);
const COUNT = 10_000;
const baseUrl = `http://127.0.0.1:${PORT}`;
const MiB = 1024 * 1024;

/** Runs `request` with the API's peak RSS reset first; returns time, bytes and the peak above the start. */
async function measure(pid: number, request: () => Promise<number>): Promise<Sample> {
  const kib = (field: string) =>
    Number(new RegExp(`${field}:\\s+(\\d+)`).exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  fs.writeFileSync(`/proc/${pid}/clear_refs`, '5'); // resets VmHWM to the current RSS
  const before = kib('VmRSS');
  const start = performance.now();
  const bytes = await request();
  const ms = performance.now() - start;
  const peak = kib('VmHWM');
  return {
    ms: Math.round(ms),
    bytes,
    peakDeltaMiB: Math.round(((peak - before) * 1024) / MiB),
    peakMiB: Math.round((peak * 1024) / MiB),
  };
}

async function get(path: string, key: string): Promise<number> {
  const response = await fetch(baseUrl + path, { headers: { authorization: `Bearer ${key}` } });
  let bytes = 0;
  for await (const chunk of response.body ?? []) bytes += (chunk as Uint8Array).byteLength;
  if (response.status !== 200) throw new Error(`${path} → ${response.status}`);
  return bytes;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
const day = (daysAgo: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date(Date.now() - daysAgo * 86_400_000));

export interface Sample {
  ms: number;
  bytes: number;
  peakDeltaMiB: number;
  peakMiB: number;
}

/** Seeds the account in a fresh database `sandbank_bench_statements` of `server`, measures, stops its API. */
export async function measureStatements(server: Server) {
  const databaseUrl = await freshDatabase(server, 'sandbank_bench_statements');
  const api = spawnApp(APP_ENTRY.api, { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' });
  const pid = api.child.pid ?? 0;
  try {
    await waitFor200(`${baseUrl}/readyz`, performance.now());
    const email = `statements.${Date.now()}@example.com`;
    const auth = await post<{ accessToken: string }>(baseUrl, '/v1/auth/register', { email, password: 'bench-password-1' });
    const account = await post<{ id: string }>(baseUrl, '/v1/accounts', { name: 'Rok & <historia>' }, auth.accessToken);
    await withClient(databaseUrl, async (client) => {
      await client.query(
        `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, merchant, category, raw, posted_at)
       select gen_random_uuid(), $1, (select user_id from accounts where id = $1), 'year_' || i,
              case when i % 4 = 0 then 250000 + i else -(1000 + (i % 5000)) end, 'PLN',
              now() - (i * interval '3110 seconds'), 'Płatność nr ' || i || ' & <zażółć> "gęślą"',
              case when i % 2 = 0 then 'Sklep ' || (i % 97) end, case when i % 4 = 0 then 'salary' else 'groceries' end,
              '{"source":"sandbank-simulator"}', now() - (i * interval '3110 seconds')
         from generate_series(1, $2::int) as i`,
        [account.id, COUNT],
      );
      await client.query(
        'update accounts set (balance, transaction_count) = (select sum(amount), count(*) from transactions where account_id = $1) where id = $1',
        [account.id],
      );
      await client.query('vacuum analyze transactions');
    });
    const key = await createApiKey(baseUrl, auth.accessToken);
    const owner = encodeURIComponent(email);
    const from = day(364);
    const pullFrom = new Date(Date.now() - 366 * 86_400_000).toISOString().slice(0, 10);
    const pull = async () => {
      let bytes = 0;
      for (let page = 1; page <= COUNT / 200; page++)
        bytes += await get(`/api/owner/${owner}/transactions?from=${pullFrom}&limit=200&page=${page}`, key);
      return bytes;
    };
    const statement = (query: string) => () =>
      get(`/api/owner/${owner}/accounts/${account.id}/statement?from=${from}&${query}`, key);
    // Warm both paths (JIT, prepared statements) on a small period.
    await get(`/api/owner/${owner}/transactions?limit=200`, key);
    for (const format of ['camt.053', 'camt.052', 'mt940', 'ofx', 'ofx1', 'csv'])
      await get(`/api/owner/${owner}/accounts/${account.id}/statement?from=${day(3)}&format=${format}`, key);

    const turns: { pull: Sample[]; camt053: Sample[] } = { pull: [], camt053: [] };
    for (let turn = 0; turn < TURNS; turn++) {
      turns.pull.push(await measure(pid, pull));
      turns.camt053.push(await measure(pid, statement('format=camt.053')));
    }
    const once: Record<string, Sample> = {};
    for (const [name, query] of [
      ['camt.052', 'format=camt.052'],
      ['mt940-cp852', 'format=mt940&encoding=cp852'],
      ['ofx', 'format=ofx'],
      ['ofx1', 'format=ofx1'],
      ['csv', 'format=csv'],
    ] as const)
      once[name] = await measure(pid, statement(query));

    const summary = (samples: Sample[]) => ({
      ms: median(samples.map((s) => s.ms)),
      bytes: samples[0]?.bytes ?? 0,
      peakDeltaMiB: median(samples.map((s) => s.peakDeltaMiB)),
      peakMiB: median(samples.map((s) => s.peakMiB)),
    });
    const reference = summary(turns.pull);
    const camt = summary(turns.camt053);
    const result = {
      entries: COUNT,
      turns: TURNS,
      reference: { what: 'JSON pull, 50 pages of 200', ...reference },
      camt053: { ...camt, timeRatioToReference: Number((camt.ms / reference.ms).toFixed(2)) },
      once: Object.fromEntries(
        Object.entries(once).map(([name, sample]) => [
          name,
          { ...sample, timeRatioToReference: Number((sample.ms / reference.ms).toFixed(2)) },
        ]),
      ),
      samples: turns,
    };
    console.log(
      `camt.053, a year of ${COUNT} entries: ${camt.ms} ms, ${(camt.bytes / MiB).toFixed(1)} MiB, API peak RSS +${camt.peakDeltaMiB} MiB (${camt.peakMiB} MiB) | ` +
        `reference JSON pull of the same rows: ${reference.ms} ms, +${reference.peakDeltaMiB} MiB | time ratio ${result.camt053.timeRatioToReference}`,
    );
    return result;
  } finally {
    await api.stop();
  }
}
