/**
 * Actual Budget itself (its budget engine through `@actual-app/api`, talking to its own sync server)
 * linking a Sandbank account over SimpleFIN, importing it, and re-syncing — what a user of Actual
 * sees, checked in Actual's own budget file: the link with its opening balance, the import, re-syncs
 * without duplicates, a pending card payment that posts turning the same row cleared, a new payment
 * arriving once. Not part of CI; `scripts/actual-e2e.sh` sets everything up and runs it:
 *
 *   ACTUAL_E2E_DIR=/tmp/sandbank-actual-e2e SANDBANK_URL=… ACTUAL_URL=… node scripts/actual-budget-e2e.ts
 *
 * ACTUAL_E2E_DIR is the folder where `@actual-app/api` and `@actual-app/sync-server` were installed
 * (they are not dependencies of this repository); the test budget is kept there too.
 */
import { mkdtempSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { check, json } from './e2e-steps.ts';

const sandbank = (process.env.SANDBANK_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const serverURL = (process.env.ACTUAL_URL ?? 'http://127.0.0.1:5006').replace(/\/$/, '');
const password = process.env.ACTUAL_PASSWORD ?? 'sandbank-e2e-password';
const e2eDir = process.env.ACTUAL_E2E_DIR;
if (!e2eDir) throw new Error('Set ACTUAL_E2E_DIR to the folder where @actual-app/api is installed');

/** A row of Actual's budget file, as `getTransactions` gives it. */
interface ImportedRow {
  id: string;
  date: string;
  imported_id: string | null;
  amount: number;
  cleared: boolean;
  imported_payee: string | null;
  notes: string | null;
  starting_balance_flag: boolean;
}
interface OfferedAccount {
  id: string;
  name: string;
  balance: string;
  org?: { name?: string; domain?: string; id?: string };
}
/** The part of @actual-app/api used here (it is not a dependency, so its types are not either). */
interface ActualApi {
  init(config: {
    dataDir: string;
    serverURL: string;
    password: string;
  }): Promise<{ send(name: string, args?: unknown): Promise<unknown> }>;
  getAccounts(): Promise<{ id: string; name: string }[]>;
  getTransactions(accountId: string, from: string, to: string): Promise<ImportedRow[]>;
  getAccountBalance(accountId: string): Promise<number>;
  runBankSync(args: { accountId: string }): Promise<void>;
  shutdown(): Promise<void>;
}
const api = createRequire(path.join(e2eDir, 'package.json'))('@actual-app/api') as ActualApi;

console.log(`▶ Sandbank at ${sandbank}: a user with one account, three transactions and a pending card payment`);
const email = `actual-budget-${Date.now()}@example.com`;
const registered = await json<{ data: { accessToken: string } }>(`${sandbank}/v1/auth/register`, {
  method: 'POST',
  body: JSON.stringify({ email, password: 'actual-e2e-password' }),
});
const auth = { authorization: `Bearer ${registered.data.accessToken}` };
const account = (
  await json<{ data: { id: string } }>(`${sandbank}/v1/accounts`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ name: 'ROR Sandbank' }),
  })
).data;
const simulate = (body: Record<string, unknown>) =>
  json<{ data: { transaction: { id: string } } }>(`${sandbank}/v1/simulations/transaction`, {
    method: 'POST',
    headers: auth,
    body: JSON.stringify({ accountId: account.id, ...body }),
  });
const day = (daysAgo: number) => new Date(Date.now() - daysAgo * 86_400_000).toISOString();
await simulate({ amount: 5_000_00, description: 'Wynagrodzenie', merchant: 'ACME', date: day(20) });
await simulate({ amount: -1_150_00, description: 'Czynsz', date: day(15) });
await simulate({ amount: -87_45, description: 'BIEDRONKA 1234', merchant: 'Biedronka', date: day(3) });
const card = (await simulate({ amount: -23_50, status: 'pending', description: 'ŻABKA Z77', merchant: 'Żabka' })).data
  .transaction;
const setup = await json<{ data: { setupToken: string } }>(`${sandbank}/v1/simplefin/setup-token`, {
  method: 'POST',
  headers: auth,
  body: '{}',
});

console.log(`▶ Actual Budget (@actual-app/api) with its sync server at ${serverURL}`);
await fetch(`${serverURL}/account/bootstrap`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ password }),
});
const actual = await api.init({ dataDir: mkdtempSync(path.join(e2eDir, 'budget-')), serverURL, password });
await actual.send('create-budget', { budgetName: `Sandbank e2e ${Date.now()}`, avoidUpload: true });
await actual.send('secret-set', { name: 'simplefin_token', value: setup.data.setupToken });
await actual.send('secret-set', { name: 'simplefin_accessKey', value: 'Forbidden' });
const offered = (await actual.send('simplefin-accounts')) as { accounts?: OfferedAccount[] };
const external = offered.accounts?.find((candidate) => candidate.id === account.id);
check(external !== undefined, `Actual offers the Sandbank account for linking (${offered.accounts?.length ?? 0} offered)`);
if (!external) process.exit(1);
await actual.send('simplefin-accounts-link', {
  externalAccount: {
    account_id: external.id,
    name: external.name,
    institution: external.org?.name,
    orgDomain: external.org?.domain,
    orgId: external.org?.id,
    balance: Math.round(Number(external.balance) * 100),
  },
  offBudget: false,
});
const linked = (await api.getAccounts()).find((candidate) => candidate.name === 'ROR Sandbank');
check(linked !== undefined, 'the account is linked in the budget');
if (!linked) process.exit(1);
const from = day(120).slice(0, 10);
const to = day(-2).slice(0, 10);
const rows = async () => (await api.getTransactions(linked.id, from, to)) as ImportedRow[];
const describe = (row: ImportedRow) =>
  `${row.starting_balance_flag ? 'opening balance' : (row.imported_payee ?? row.notes)} ${(row.amount / 100).toFixed(2)} ${row.date}${row.cleared ? '' : ' (pending)'}`;
const sandbankBalance = async () =>
  (
    await json<{ data: { balance: number; availableBalance: number } }>(`${sandbank}/v1/accounts/${account.id}`, {
      headers: auth,
    })
  ).data;
const first = await rows();
console.log(`  imported on linking: ${first.map(describe).join('; ')}`);
const opening = first.filter((row) => row.starting_balance_flag);
check(opening.length === 1, `one opening-balance row, ${opening.map(describe).join('')}`);
const balance = await api.getAccountBalance(linked.id);
const atLink = await sandbankBalance();
check(
  balance === atLink.balance,
  `Actual's balance ${balance} = Sandbank's balance ${atLink.balance} (posted; available ${atLink.availableBalance})`,
);
const cardRow = first.filter((row) => row.imported_id === card.id);
check(cardRow.length === 1 && cardRow[0]?.cleared === false, 'the card payment is imported once, not cleared (pending)');
check(
  first.filter((row) => row.imported_id !== null).length === 4,
  'four transactions imported (three posted, one pending), each with its Sandbank id',
);

await api.runBankSync({ accountId: linked.id });
check((await rows()).length === first.length, 're-sync without changes: no duplicates');

// Something new happens at the bank, and the card payment posts.
const fuel = (await simulate({ amount: -150_00, description: 'ORLEN 123', merchant: 'Orlen' })).data.transaction;
await json(`${sandbank}/v1/transactions/${card.id}/post`, { method: 'POST', headers: auth, body: '{}' });
await api.runBankSync({ accountId: linked.id });
const after = await rows();
console.log(`  after posting and a new payment, re-synced: ${after.map(describe).join('; ')}`);
const postedCard = after.filter((row) => row.imported_id === card.id);
check(
  postedCard.length === 1 && postedCard[0]?.cleared === true && postedCard[0]?.id === cardRow[0]?.id,
  'the card payment: the same row (same Actual id), now cleared',
);
check(after.filter((row) => row.imported_id === fuel.id).length === 1, 'the new payment imported once');
check(after.length === first.length + 1, `${after.length} rows = ${first.length} + the new one: nothing doubled`);
await api.runBankSync({ accountId: linked.id });
check((await rows()).length === after.length, 'one more re-sync: still nothing doubled');
// Actual's opening balance is the reported balance minus everything imported, pending included; with
// Sandbank's balance (posted only, as many banks report it) a payment pending at link time therefore
// stays in the opening balance after it posts. Reported, not checked: it is Actual's arithmetic.
const actualNow = await api.getAccountBalance(linked.id);
const sandbankNow = await sandbankBalance();
console.log(
  `  balances now: Actual ${actualNow}, Sandbank ${sandbankNow.balance} (difference ${actualNow - sandbankNow.balance}: the payment pending at link time)`,
);
await api.shutdown();
console.log(process.exitCode ? '\n✘ Actual budget run found problems' : '\n✔ Actual budget run complete');
