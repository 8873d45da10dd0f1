/**
 * `sandbank pay` (packages/cli) against a real API: an own-account transfer, a payment to an IBAN waiting
 * for its Elixir session, a test IBAN rejected at validation (still a payment, RJCT AC01), the same
 * idempotency key answering the same payment, and usage errors that send nothing.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { cliEnv, sandbank } from './cli-process.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

let app: TestApp;
let user: TestUser;
let configDir: string;
let env: Record<string, string>;
beforeAll(async () => {
  app = await startTestApp();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-cli-pay-'));
  env = cliEnv(configDir);
  user = await app.createUser();
  const login = await sandbank(['login', '--api-url', app.url, '--email', user.email, '--password-stdin'], env, user.password);
  expect(login.code, login.stderr).toBe(0);
});
afterAll(async () => {
  await app?.close();
  await rm(configDir, { recursive: true, force: true });
});

interface Paid {
  id: string;
  status: string;
  scheme: string;
  statusReason: { code: string } | null;
  transactionIds: string[];
  idempotencyKey: string;
}

async function pay(...args: string[]): Promise<Paid> {
  const run = await sandbank(['--json', 'pay', ...args], env);
  expect(run.code, `${run.stdout}${run.stderr}`).toBe(0);
  return JSON.parse(run.stdout) as Paid;
}

const balanceOf = async (accountId: string) =>
  (
    await app.call<{ data: { balance: number; availableBalance: number } }>('GET', `/v1/accounts/${accountId}`, {
      token: user.accessToken,
    })
  ).body.data;

it('pays between own accounts, to an IBAN over Elixir, and to a test IBAN refused with AC01', async () => {
  const from = await openAccount(app, user, 'CLI source');
  const to = await openAccount(app, user, 'CLI savings');
  expect((await simulate(app, user, { accountId: from, amount: 1_000_00 })).status).toBe(201);

  const transfer = await pay('--from', from, '--to-account', to, '--amount', '25000');
  expect(transfer.status).toBe('ACSC');
  expect(transfer.transactionIds).toHaveLength(2);
  expect((await balanceOf(to)).balance).toBe(250_00);

  const rent = await pay('--from', from, '--iban', 'PL61109010140000071219812874', '--name', 'Jan Kowalski', '--amount', '10000');
  expect([rent.scheme, rent.status]).toEqual(['elixir', 'ACTC']);
  expect(await balanceOf(from)).toEqual(expect.objectContaining({ balance: 750_00, availableBalance: 650_00 }));

  const refused = await pay('--from', from, '--iban', 'PL78999000250000000000000101', '--name', 'Nobody', '--amount', '100');
  expect([refused.status, refused.statusReason?.code]).toEqual(['RJCT', 'AC01']);

  // The same key and body: the same payment, nothing booked twice.
  const again = await pay(
    '--from',
    from,
    '--iban',
    'PL61109010140000071219812874',
    '--name',
    'Jan Kowalski',
    '--amount',
    '10000',
    '--idempotency-key',
    rent.idempotencyKey,
  );
  expect(again.id).toBe(rent.id);
  expect((await balanceOf(from)).availableBalance).toBe(650_00);

  const human = await sandbank(['pay', '--from', from, '--to-account', to, '--amount', '100'], env);
  expect(human.stdout).toMatch(/^Payment \S+: 100 PLN minor units via internal, ACSC \(end-to-end \S+\)\n$/);
});

it('refuses what is not one payment before sending anything (exit 2)', async () => {
  const from = await openAccount(app, user, 'CLI usage');
  for (const args of [
    ['--from', from, '--amount', '100'],
    ['--from', from, '--to-account', from, '--iban', 'PL61109010140000071219812874', '--name', 'X', '--amount', '100'],
    ['--from', from, '--iban', 'PL61109010140000071219812874', '--amount', '100'],
  ]) {
    const run = await sandbank(['pay', ...args], env);
    expect(run.code, run.stderr).toBe(2);
  }
  const { rows } = await app.db.query('select 1 from payments where user_id = $1 and from_account_id = $2', [user.id, from]);
  expect(rows).toHaveLength(0);
});
