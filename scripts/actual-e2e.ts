/**
 * An end-to-end run of Actual Budget's own SimpleFIN client (its sync server, `@actual-app/sync-server`
 * from npm, code nobody on this team wrote) against a running Sandbank. Not part of CI: it needs the
 * sync server installed and running: `scripts/actual-e2e.sh` does that and runs it (docs/faces/simplefin.md).
 *
 *   SANDBANK_URL=http://127.0.0.1:3100 ACTUAL_URL=http://127.0.0.1:5006 node scripts/actual-e2e.ts
 *
 * It registers a Sandbank user with a student's six months (examples/scenarios/student.json) and a
 * pending card payment, creates a SimpleFIN setup token, gives it to Actual's server as its SimpleFIN
 * token (as Actual's settings page does), asks it for the accounts to link and their transactions
 * (as a bank sync does), then posts the card payment in Sandbank and syncs again: the same
 * transaction id comes back, now booked. Exits non-zero when any of that does not hold.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { check, json } from './e2e-steps.ts';

const sandbank = (process.env.SANDBANK_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const actual = (process.env.ACTUAL_URL ?? 'http://127.0.0.1:5006').replace(/\/$/, '');
const ACTUAL_PASSWORD = process.env.ACTUAL_PASSWORD ?? 'sandbank-e2e-password';

// 1. A Sandbank user with a world worth syncing.
console.log(`▶ Sandbank at ${sandbank}: a student's six months and a pending card payment`);
const email = `actual-e2e-${Date.now()}@example.com`;
const registered = await json<{ data: { accessToken: string } }>(`${sandbank}/v1/auth/register`, {
  method: 'POST',
  body: JSON.stringify({ email, password: 'actual-e2e-password' }),
});
const auth = { authorization: `Bearer ${registered.data.accessToken}` };
const scenario = JSON.parse(readFileSync(fileURLToPath(new URL('../examples/scenarios/student.json', import.meta.url)), 'utf8'));
const applied = await json<{ data: { accounts: { id: string; name: string }[]; transactions: number } }>(
  `${sandbank}/v1/scenarios/apply`,
  { method: 'POST', headers: auth, body: JSON.stringify({ scenario }) },
);
const account = applied.data.accounts[0];
if (!account) throw new Error('the scenario made no account');
const card = await json<{ data: { transaction: { id: string } } }>(`${sandbank}/v1/simulations/transaction`, {
  method: 'POST',
  headers: auth,
  body: JSON.stringify({
    accountId: account.id,
    amount: -12_34,
    status: 'pending',
    merchant: 'Żabka',
    description: 'ŻABKA Z1234',
  }),
});
console.log(`  ${applied.data.transactions} transactions on ${account.name}; card payment ${card.data.transaction.id} pending`);
const setup = await json<{ data: { setupToken: string } }>(`${sandbank}/v1/simplefin/setup-token`, {
  method: 'POST',
  headers: auth,
  body: '{}',
});

// 2. Actual's sync server: sign in, and paste the setup token as its SimpleFIN token.
console.log(`▶ Actual sync server at ${actual}`);
const info = await json<{ build: { version: string } }>(`${actual}/info`);
console.log(`  @actual-app/sync-server ${info.build.version}`);
await fetch(`${actual}/account/bootstrap`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ password: ACTUAL_PASSWORD }),
});
const login = await json<{ data: { token: string } }>(`${actual}/account/login`, {
  method: 'POST',
  body: JSON.stringify({ loginMethod: 'password', password: ACTUAL_PASSWORD }),
});
const actualAuth = { 'x-actual-token': login.data.token };
await json(`${actual}/secret`, {
  method: 'POST',
  headers: actualAuth,
  body: JSON.stringify({ name: 'simplefin_token', value: setup.data.setupToken }),
});
await json(`${actual}/secret`, {
  method: 'POST',
  headers: actualAuth,
  body: JSON.stringify({ name: 'simplefin_accessKey', value: 'Forbidden' }),
});

interface SyncTransaction {
  transactionId: string;
  booked: boolean;
  date: string;
  payeeName: string;
  transactionAmount: { amount: string };
}
interface SyncResponse {
  startingBalance: number;
  balances: { balanceAmount: { amount: string } }[];
  transactions: { all: SyncTransaction[]; booked: SyncTransaction[]; pending: SyncTransaction[] };
}

// 3. "Link bank account → SimpleFIN": the accounts Actual offers to link (this claims the token).
const accounts = await json<{
  status: string;
  data: { accounts?: { id: string; name: string; balance: string; org: { name: string } }[]; error_code?: string };
}>(`${actual}/simplefin/accounts`, { method: 'POST', headers: actualAuth, body: '{}' });
console.log(
  `  accounts offered for linking: ${JSON.stringify(accounts.data.accounts?.map((a) => `${a.org.name} / ${a.name}: ${a.balance}`))}`,
);
check(accounts.data.accounts?.some((a) => a.id === account.id) === true, 'Actual lists the Sandbank account for linking');

// 4. A bank sync of that account, ~90 days back as Actual asks.
const startDate = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
const sync = async () =>
  (
    await json<{ data: SyncResponse & { error_code?: string } }>(`${actual}/simplefin/transactions`, {
      method: 'POST',
      headers: actualAuth,
      body: JSON.stringify({ accountId: account.id, startDate }),
    })
  ).data;
const first = await sync();
check(first.error_code === undefined, `sync answered without an error (${first.error_code ?? 'ok'})`);
const sandbankAccount = await json<{ data: { balance: number } }>(`${sandbank}/v1/accounts/${account.id}`, { headers: auth });
check(
  first.startingBalance === sandbankAccount.data.balance,
  `balance ${first.startingBalance} grosze = Sandbank's ${sandbankAccount.data.balance}`,
);
const ids = first.transactions.all.map((t) => t.transactionId);
check(
  new Set(ids).size === ids.length,
  `${ids.length} transactions imported, no id twice (${first.transactions.booked.length} booked, ${first.transactions.pending.length} pending)`,
);
const pendingCard = first.transactions.pending.find((t) => t.transactionId === card.data.transaction.id);
check(
  pendingCard?.transactionAmount.amount === '-12.34' && pendingCard.payeeName === 'Żabka',
  'the card payment arrives pending, -12.34 at Żabka',
);

// 5. The card payment posts in Sandbank; the next sync has the same id, booked, and nothing doubled.
await json(`${sandbank}/v1/transactions/${card.data.transaction.id}/post`, { method: 'POST', headers: auth, body: '{}' });
const second = await sync();
const postedCard = second.transactions.all.filter((t) => t.transactionId === card.data.transaction.id);
check(postedCard.length === 1 && postedCard[0]?.booked === true, 'after posting: the same transaction id, now booked, once');
check(
  second.transactions.all.length === first.transactions.all.length,
  `re-sync: ${second.transactions.all.length} transactions, the same count`,
);
console.log(process.exitCode ? '\n✘ Actual end-to-end run found problems' : '\n✔ Actual end-to-end run complete');
