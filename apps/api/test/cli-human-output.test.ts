/**
 * What the real `sandbank` CLI prints for a person (packages/cli): results in words, never a JSON
 * fragment, with counts in the singular for one ("1 account"); and `trigger webhook.test` without
 * `--webhook` sends to the world's only webhook, or names the choices (exit 2) when there are none or
 * several.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cliEnv, sandbank } from './cli-process.ts';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
let configDir: string;
let env: Record<string, string>;
let token: string;
beforeAll(async () => {
  app = await startTestApp();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-cli-human-'));
  env = cliEnv(configDir);
  const user = await app.createUser();
  token = user.accessToken;
  const login = await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password);
  expect(login.code, login.stderr).toBe(0);
});
afterAll(async () => {
  await app?.close();
  await rm(configDir, { recursive: true, force: true });
});

/** `sandbank …args` for a person (no --json): exit 0, and its standard output. */
async function human(...args: string[]): Promise<string> {
  const run = await sandbank(args, env);
  expect(run.code, `${args.join(' ')}: ${run.stdout}${run.stderr}`).toBe(0);
  return run.stdout;
}

/** One account (its opening balance is a transaction), one pending card payment that settles in two days, one daily credit that began an hour ago (one past run). */
const SCENARIO = {
  version: 1,
  seed: 'cli-human-output',
  accounts: [
    {
      key: 'main',
      name: 'Everyday',
      openingBalance: 10_000,
      transactions: [{ at: '-PT1H', amount: -1_250, description: 'Coffee', status: 'pending', settleAfter: 'P2D' }],
      schedules: [{ amount: 500, description: 'Pocket money', rrule: 'FREQ=DAILY', startAt: '-PT1H' }],
    },
  ],
};

describe('trigger payment.*', () => {
  it('makes a payment waiting for its session (payment.created), then cancels one (payment.updated)', async () => {
    const created = await human('trigger', 'payment.created');
    expect(created).toMatch(/payment \S+ of \d+ PLN minor units from \S+ \(ACTC\)/);
    const updated = await human('trigger', 'payment.updated');
    expect(updated).toMatch(/\(ACTC\), then cancelled/);
    const { rows } = await app.db.query<{ type: string; status: string }>(
      `select type, payload->'payment'->>'status' as status from events where type like 'payment.%' order by txid, seq`,
    );
    expect(rows.slice(-3)).toEqual([
      { type: 'payment.created', status: 'ACTC' },
      { type: 'payment.created', status: 'ACTC' },
      { type: 'payment.updated', status: 'CANC' },
    ]);
  });
});

describe('human output', () => {
  it('says what a scenario, a clock advance and a snapshot hold in words, one in the singular', async () => {
    const file = path.join(configDir, 'scenario.json');
    await writeFile(file, JSON.stringify(SCENARIO));
    const applied = await human('scenario', 'apply', file, '--reset');
    expect(applied).toMatch(
      /^Scenario applied: 1 account, 2 transactions, 1 schedule \(1 past run: 1 booked, 0 failed\), 0 webhooks; event \S+\n {2}main: \S+ Everyday\n$/,
    );

    const advanced = await human('clock', 'advance', 'P3DT12H');
    expect(advanced).toMatch(
      /^Clock moved from \S+ to \S+: 3 scheduled transactions fired, 1 pending transaction settled, 0 pending transactions expired; 4 events\n$/,
    );

    const snapshot = await human('snapshots', 'create', 'after three days');
    expect(snapshot).toMatch(
      /^Snapshot taken: \S+ {2}after three days {2}\(1 account, 6 transactions, 1 schedule; taken at \S+\)\n$/,
    );

    for (const printed of [applied, advanced, snapshot]) expect(printed).not.toMatch(/[{}"]/);
  });

  it('sends webhook.test to the only webhook without --webhook, and names the choices when there are none or several', async () => {
    const none = await sandbank(['trigger', 'webhook.test'], env);
    expect(none.code).toBe(2);
    expect(none.stderr).toContain('webhook.test needs a webhook, and you have none: register one (POST /v1/webhooks)');

    const register = async (pathName: string) => {
      const res = await app.call('POST', '/v1/webhooks', {
        token,
        body: {
          url: `http://127.0.0.1:9${pathName}`,
          secret: 'whsec-cli-human-0123456789',
          events: ['transaction.created'],
          clientId: 'cli',
        },
      });
      expect(res.status).toBe(201);
      return res.body.data.id as string;
    };
    const only = await register('/only');
    const sent = await human('trigger', 'webhook.test');
    expect(sent).toMatch(new RegExp(`^Triggered webhook\\.test: event \\S+ sent to webhook ${only}\\n$`));
    const json = await sandbank(['trigger', 'webhook.test', '--json'], env);
    expect(JSON.parse(json.stdout)).toMatchObject({ kind: 'webhook.test', webhookId: only, eventId: expect.any(String) });
    const deliveries = await app.call('GET', `/v1/webhooks/${only}/deliveries`, { token });
    expect(deliveries.body.data).toHaveLength(2);

    const second = await register('/second');
    const several = await sandbank(['trigger', 'webhook.test'], env);
    expect(several.code).toBe(2);
    expect(several.stderr).toContain('you have 2 webhooks: choose one with --webhook <id>');
    expect(several.stderr).toContain(`${only}  http://127.0.0.1:9/only`);
    expect(several.stderr).toContain(`${second}  http://127.0.0.1:9/second`);
    // Naming one still works.
    expect(await human('trigger', 'webhook.test', '--webhook', second)).toContain(`sent to webhook ${second}`);
  });
});
