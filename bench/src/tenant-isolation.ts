/**
 * Tenant isolation (docs/reference/limits.md, "Per family"): another tenant's read latency while one
 * tenant bursts 30 calls of each heavy endpoint at once, beside the same reader alone.
 *
 *   node bench/src/tenant-isolation.ts <base URL> [<label>] [<base URL> <label> …]
 *
 * Give it two running APIs (e.g. the previous release and this one, on one database server) to
 * compare them in one sitting; run them with RATE_LIMIT_ENABLED=false, the bursts exceed the IP
 * limit. Prints one JSON object: per API and per endpoint, the reader's p50, p99 and max in ms.
 */

interface Target {
  url: string;
  label: string;
}

interface Figures {
  p50: number;
  p99: number;
  max: number;
  samples: number;
}

const BURST = 30;
const SAMPLES = 200;

const percentile = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(values.length * p) - 1)] ?? 0;

const figures = (values: number[]): Figures => ({
  p50: Math.round(percentile(values, 0.5) * 10) / 10,
  p99: Math.round(percentile(values, 0.99) * 10) / 10,
  max: Math.round(Math.max(...values) * 10) / 10,
  samples: values.length,
});

async function call(url: string, method: string, path: string, token?: string, body?: unknown) {
  const response = await fetch(url + path, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as { data?: unknown }) : {} };
}

async function register(url: string): Promise<string> {
  const res = await call(url, 'POST', '/v1/auth/register', undefined, {
    email: `bench.tenant.${crypto.randomUUID()}@example.com`,
    password: 'bench-password-1',
  });
  if (res.status !== 201) throw new Error(`register → ${res.status} ${JSON.stringify(res.body)}`);
  return (res.body.data as { accessToken: string }).accessToken;
}

const dataOf = <T>(res: { status: number; body: { data?: unknown } }, what: string): T => {
  if (res.status >= 300) throw new Error(`${what} → ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.data as T;
};

async function measure({ url }: Target): Promise<Record<string, Figures>> {
  const [burster, reader] = [await register(url), await register(url)];
  await call(url, 'POST', '/v1/accounts', reader, { name: 'Reader' });
  const snapshot = dataOf<{ id: string }>(
    await call(url, 'POST', '/v1/sandbox/snapshots', burster, { name: 'base' }),
    'snapshot',
  );
  const read = async () => {
    const started = performance.now();
    const res = await call(url, 'GET', '/v1/accounts', reader);
    if (res.status !== 200) throw new Error(`reader → ${res.status}`);
    return performance.now() - started;
  };
  const alone: number[] = [];
  for (let i = 0; i < SAMPLES; i++) alone.push(await read());
  const result: Record<string, Figures> = { alone: figures(alone) };
  const scenario = {
    version: 1,
    seed: 'tenant',
    accounts: [{ key: 'main', name: 'Main', openingBalance: 100_000, history: { months: 1, profile: 'student' } }],
  };
  const kinds: Record<string, () => Promise<() => { method: string; path: string; body?: unknown }>> = {
    snapshots: async () => () => ({ method: 'POST', path: '/v1/sandbox/snapshots', body: { name: 'burst' } }),
    restore: async () => () => ({ method: 'POST', path: '/v1/sandbox/restore', body: { snapshotId: snapshot.id } }),
    advance: async () => () => ({ method: 'POST', path: '/v1/clock/advance', body: { by: 'PT1S' } }),
    reset: async () => () => ({ method: 'POST', path: '/v1/sandbox/reset', body: { confirm: 'RESET' } }),
    scenarios: async () => () => ({ method: 'POST', path: '/v1/scenarios/apply', body: { scenario, reset: true } }),
    schedules: async () => {
      const account = dataOf<{ id: string }>(
        await call(url, 'POST', '/v1/accounts', burster, { name: `Main ${crypto.randomUUID().slice(0, 8)}` }),
        'account',
      );
      return () => ({
        method: 'POST',
        path: `/v1/accounts/${account.id}/schedules`,
        body: { amount: -100, description: 'Rent', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1' },
      });
    },
  };
  for (const [kind, prepare] of Object.entries(kinds)) {
    const request = await prepare();
    const latencies: number[] = [];
    // Bursts one after another until the reader has its samples (or a minute has passed: a stalled
    // reader gets one sample per burst), each burst 30 calls at once.
    const until = performance.now() + 60_000;
    while (latencies.length < SAMPLES && performance.now() < until) {
      let done = false;
      const burst = Promise.all(
        Array.from({ length: BURST }, () => {
          const { method, path, body } = request();
          return call(url, method, path, burster, body);
        }),
      ).finally(() => {
        done = true;
      });
      while (!done && latencies.length < SAMPLES) latencies.push(await read());
      await burst;
    }
    result[kind] = figures(latencies);
  }
  return result;
}

const args = process.argv.slice(2);
const targets: Target[] = [];
for (let i = 0; i < args.length; i += 2) targets.push({ url: args[i] as string, label: args[i + 1] ?? (args[i] as string) });
if (targets.length === 0) {
  console.error('usage: node bench/src/tenant-isolation.ts <base URL> [<label>] [<base URL> <label> …]');
  process.exit(2);
}
const out: Record<string, Record<string, Figures>> = {};
for (const target of targets) out[target.label] = await measure(target);
console.log(JSON.stringify(out, null, 2));
