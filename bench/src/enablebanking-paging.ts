/**
 * The Enable Banking face's transaction paging beside the native history, in one sitting (issue 43).
 * A fresh user's account gets a year of history (BENCH_EB_HISTORY transactions, default 3,650 — ten a day, spread
 * evenly over 364 days, seeded by SQL as the history's 100,000 are); an application registered by the
 * owner makes a session at `Sandbank Sandbox` over it. Then 32 clients (each its own keep-alive
 * connection) page through the whole year, over and over, for `seconds` each turn:
 *
 * - Enable Banking: `GET /enablebanking/accounts/{uid}/transactions?date_from=<a year ago>`, then
 *   `?continuation_key=…` while the answer has one (100 a page, the face's page), the app's RS256 JWT
 *   signed once (up to 24 h, as Enable Banking allows) and sent with every page;
 * - native: `GET /v1/accounts/{id}/transactions?limit=100&page=n` while `meta.hasMore`, the same rows
 *   in pages of the same size.
 *
 * Each client makes BENCH_EB_PASSES whole passes (default 1), so both sides serve the same mix of early
 * and late pages (a turn stops early only at its cap of `seconds`, and says so in `passes`). Turns
 * alternate (Enable Banking, native, …; BENCH_EB_TURNS, default 2) after 3 s of each to warm; medians
 * (the upper of two). Every request's latency is timed here (a closed loop per client over node:http),
 * so both sides pay the same client cost. Ratios are Enable Banking ÷ native: p99 and requests/s.
 */
import http from 'node:http';
import { importPKCS8, SignJWT } from 'jose';
import { post, seedHistory, seedUsers } from './seed.ts';

export interface PagingResult {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  /** Whole passes through the year the clients finished. */
  passes: number;
  /** The median client's time for one pass, in seconds. */
  passSeconds: number;
  total: number;
}

interface Pager<S> {
  start: () => S;
  pathOf: (state: S) => string;
  /** The next page's state, or undefined after the last page. */
  next: (state: S, body: unknown) => S | undefined;
}

function get(agent: http.Agent, url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.get(url, { agent, headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
      response.on('error', reject);
    });
    request.on('error', reject);
  });
}

const percentile = (sorted: number[], p: number) =>
  Number((sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0).toFixed(1));

/** `connections` clients, each paging from the first page to the last `passes` times (or until `seconds` are up). */
async function pagingLoad<S>(
  baseUrl: string,
  pager: Pager<S>,
  options: { connections: number; seconds: number; passes: number; headers: Record<string, string> },
): Promise<PagingResult> {
  const { connections, seconds, headers } = options;
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies: number[] = [];
  const passTimes: number[] = [];
  let non2xx = 0;
  let passes = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      let state = pager.start();
      let mine = 0;
      let passStarted = performance.now();
      while (mine < options.passes && performance.now() < deadline) {
        const sent = performance.now();
        const { status, body } = await get(agent, baseUrl + pager.pathOf(state), headers);
        latencies.push(performance.now() - sent);
        if (status !== 200) {
          non2xx++;
          state = pager.start();
          continue;
        }
        const following = pager.next(state, JSON.parse(body));
        if (following === undefined) {
          passes++;
          mine++;
          passTimes.push((performance.now() - passStarted) / 1000);
          passStarted = performance.now();
          state = pager.start();
        } else state = following;
      }
    }),
  );
  const elapsed = (performance.now() - started) / 1000;
  agent.destroy();
  latencies.sort((a, b) => a - b);
  passTimes.sort((a, b) => a - b);
  return {
    requestsPerSecond: Math.round(latencies.length / elapsed),
    p50: percentile(latencies, 50),
    p95: percentile(latencies, 95),
    p99: percentile(latencies, 99),
    non2xx,
    passes,
    passSeconds: Number((passTimes[Math.floor(passTimes.length / 2)] ?? 0).toFixed(2)),
    total: latencies.length,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const medianOf = (runs: PagingResult[]): PagingResult => ({
  requestsPerSecond: median(runs.map((run) => run.requestsPerSecond)),
  p50: median(runs.map((run) => run.p50)),
  p95: median(runs.map((run) => run.p95)),
  p99: median(runs.map((run) => run.p99)),
  non2xx: runs.reduce((sum, run) => sum + run.non2xx, 0),
  passes: runs.reduce((sum, run) => sum + run.passes, 0),
  passSeconds: median(runs.map((run) => run.passSeconds)),
  total: runs.reduce((sum, run) => sum + run.total, 0),
});

/** A local date (YYYY-MM-DD) in Europe/Warsaw, `days` days before now (the face's dates). */
const warsawDaysAgo = (days: number) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(new Date(Date.now() - days * 86_400_000));

export async function measureEnableBankingPaging(
  baseUrl: string,
  databaseUrl: string,
  options: { connections: number; seconds: number; history?: number; turns?: number; passes?: number },
) {
  const history = options.history ?? Number(process.env.BENCH_EB_HISTORY ?? 3_650);
  const turnCount = options.turns ?? Number(process.env.BENCH_EB_TURNS ?? 2);
  const passes = options.passes ?? Number(process.env.BENCH_EB_PASSES ?? 1);
  const [user] = await seedUsers(baseUrl, { users: 1, accountsPerUser: 1, webhookUrl: null });
  const accountId = user?.accountIds[0];
  if (!user || !accountId) throw new Error('seeding the Enable Banking account failed');
  await seedHistory(databaseUrl, accountId, history, Math.floor((364 * 86_400) / history));

  const redirect = 'https://bench.invalid/enablebanking/callback';
  const application = await post<{ id: string; privateKey: string }>(
    baseUrl,
    '/v1/enablebanking/applications',
    { name: 'bench', redirectUrls: [redirect] },
    user.token,
  );
  const now = Math.floor(Date.now() / 1000);
  const jwt = await new SignJWT({})
    .setProtectedHeader({ typ: 'JWT', alg: 'RS256', kid: application.id })
    .setIssuer('enablebanking.com')
    .setAudience('api.enablebanking.com')
    .setIssuedAt(now)
    .setExpirationTime(now + 23 * 3600)
    .sign(await importPKCS8(application.privateKey, 'RS256'));
  const eb = { authorization: `Bearer ${jwt}`, 'content-type': 'application/json' };
  const face = async <T>(path: string, body: unknown): Promise<T> => {
    const response = await fetch(`${baseUrl}/enablebanking${path}`, { method: 'POST', headers: eb, body: JSON.stringify(body) });
    if (response.status !== 200) throw new Error(`POST /enablebanking${path} → ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  };
  // The sandbox ASPSP approves every open account at once: `url` carries the code straight back.
  const started = await face<{ url: string }>('/auth', {
    access: { valid_until: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
    state: 'bench',
    redirect_url: redirect,
    psu_type: 'personal',
  });
  const session = await face<{ accounts: { uid: string }[] }>('/sessions', {
    code: new URL(started.url).searchParams.get('code'),
  });
  const uid = session.accounts[0]?.uid;
  if (!uid) throw new Error('the Enable Banking session has no account');

  const dateFrom = warsawDaysAgo(364);
  const ebPager: Pager<string | null> = {
    start: () => null,
    pathOf: (key) =>
      `/enablebanking/accounts/${uid}/transactions?${key === null ? `date_from=${dateFrom}` : `continuation_key=${key}`}`,
    next: (_key, body) => (body as { continuation_key?: string }).continuation_key,
  };
  const nativePager: Pager<number> = {
    start: () => 1,
    pathOf: (page) => `/v1/accounts/${accountId}/transactions?limit=100&page=${page}`,
    next: (page, body) => ((body as { meta: { hasMore: boolean } }).meta.hasMore ? page + 1 : undefined),
  };
  const native = { authorization: `Bearer ${user.token}` };
  const run = { connections: options.connections, passes };
  await pagingLoad(baseUrl, ebPager, { ...run, seconds: 3, headers: eb });
  await pagingLoad(baseUrl, nativePager, { ...run, seconds: 3, headers: native });
  const turns: { enablebanking: PagingResult; native: PagingResult }[] = [];
  for (let turn = 0; turn < turnCount; turn++) {
    const enablebanking = await pagingLoad(baseUrl, ebPager, { ...run, seconds: options.seconds, headers: eb });
    turns.push({
      enablebanking,
      native: await pagingLoad(baseUrl, nativePager, { ...run, seconds: options.seconds, headers: native }),
    });
  }
  const enablebanking = medianOf(turns.map((turn) => turn.enablebanking));
  const nativePaging = medianOf(turns.map((turn) => turn.native));
  const ratio = (a: number, b: number) => Number((a / Math.max(b, 0.001)).toFixed(2));
  return {
    history,
    pagesPerPass: Math.ceil(history / 100),
    enablebanking,
    native: nativePaging,
    turns,
    p99Ratio: ratio(enablebanking.p99, nativePaging.p99),
    throughputRatio: ratio(enablebanking.requestsPerSecond, nativePaging.requestsPerSecond),
  };
}
