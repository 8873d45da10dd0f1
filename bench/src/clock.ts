/**
 * The clock and scenarios (docs/concepts/clock-and-schedules.md, docs/concepts/scenarios.md): how long the family example (12 months × 3 accounts)
 * takes to apply (target < 5 s), and a one-year advance over 10 schedules and 100 pending
 * settlements — each the median of three fresh users.
 */
import fs from 'node:fs';
import path from 'node:path';
import { root } from './stack.ts';

export interface ClockResult {
  scenarioApply: { transactions: number; medianMs: number; runsMs: number[] };
  yearAdvance: { fired: number; medianMs: number; runsMs: number[] };
}

async function call<T>(baseUrl: string, method: string, route: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl + route, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

async function register(baseUrl: string): Promise<string> {
  const email = `bench.clock.${crypto.randomUUID()}@example.com`;
  return (await call<{ accessToken: string }>(baseUrl, 'POST', '/v1/auth/register', { email, password: 'bench-password-1' }))
    .accessToken;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

export async function measureClock(baseUrl: string, runs = 3): Promise<ClockResult> {
  const scenario = JSON.parse(fs.readFileSync(path.join(root, 'examples/scenarios/family.json'), 'utf8'));
  const applyMs: number[] = [];
  let transactions = 0;
  for (let run = 0; run < runs; run++) {
    const token = await register(baseUrl);
    const started = performance.now();
    const applied = await call<{ transactions: number }>(baseUrl, 'POST', '/v1/scenarios/apply', { scenario }, token);
    applyMs.push(Math.round(performance.now() - started));
    transactions = applied.transactions;
  }

  const advanceMs: number[] = [];
  let fired = 0;
  const rules = [
    'FREQ=MONTHLY;BYMONTHDAY=10',
    'FREQ=MONTHLY;BYMONTHDAY=1',
    'FREQ=WEEKLY;BYDAY=FR',
    'FREQ=WEEKLY;BYDAY=MO,TH',
    'FREQ=DAILY;INTERVAL=3',
  ];
  for (let run = 0; run < runs; run++) {
    const token = await register(baseUrl);
    const account = await call<{ id: string }>(baseUrl, 'POST', '/v1/accounts', { name: 'Main' }, token);
    await call(baseUrl, 'POST', '/v1/simulations/transaction', { accountId: account.id, amount: 100_000_000 }, token);
    for (let index = 0; index < 10; index++) {
      await call(
        baseUrl,
        'POST',
        `/v1/accounts/${account.id}/schedules`,
        {
          amount: index % 2 ? -1_000 : 2_000,
          description: `Schedule ${index}`,
          rrule: rules[index % rules.length],
          startAt: new Date(Date.now() + 3_600_000).toISOString(),
        },
        token,
      );
    }
    for (let index = 0; index < 100; index++) {
      await call(
        baseUrl,
        'POST',
        '/v1/simulations/transaction',
        { accountId: account.id, amount: -(index + 1), status: 'pending', settleAfter: `P${1 + (index % 200)}D` },
        token,
      );
    }
    const started = performance.now();
    const advanced = await call<{ fired: { scheduled: number; settled: number; expired: number } }>(
      baseUrl,
      'POST',
      '/v1/clock/advance',
      { by: 'P1Y' },
      token,
    );
    advanceMs.push(Math.round(performance.now() - started));
    fired = advanced.fired.scheduled + advanced.fired.settled + advanced.fired.expired;
  }
  return {
    scenarioApply: { transactions, medianMs: median(applyMs), runsMs: applyMs },
    yearAdvance: { fired, medianMs: median(advanceMs), runsMs: advanceMs },
  };
}
