/**
 * `pnpm demo`: the newcomer's tour, against a running Sandbank (BASE_URL, default
 * http://localhost:3000). It registers a user, opens two accounts, books a month of realistic
 * PLN transactions, drives a card payment through its lifecycle (pending, posted with a tip, a
 * voided hold, a refund), receives signed webhooks on a local receiver, issues an API key and pulls
 * the history like a budgeting app would, links the accounts through the GoCardless face, then applies a year of a family from an example scenario
 * and advances the clock a month. Exits non-zero if any step fails (CI runs it).
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { verifySignature } from '@sandbank/webhooks';

const baseUrl = (process.env.BASE_URL ?? 'http://localhost:3000').replace(/\/$/, '');
const pln = (minor: number) => `${(minor / 100).toFixed(2)} PLN`;
const step = (message: string) => console.log(`\n▶ ${message}`);

async function call<T>(method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl + path, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as T & { code?: string; message?: string };
  if (!response.ok) throw new Error(`${method} ${path} → ${response.status} ${json.code}: ${json.message}`);
  return json;
}

const day = (daysAgo: number, hour = 12) => {
  const date = new Date(Date.now() - daysAgo * 86_400_000);
  date.setUTCHours(hour, 0, 0, 0);
  return date.toISOString();
};

// A month in the life of a Warsaw household: [days ago, account, amount in grosze, description].
const MONTH: [number, 'main' | 'savings', number, string][] = [
  [30, 'main', 850_000, 'Salary — ACME Sp. z o.o.'],
  [29, 'main', -320_000, 'Rent — November'],
  [29, 'main', -100_000, 'Transfer to savings'],
  [29, 'savings', 100_000, 'Transfer from main'],
  [28, 'main', -18_734, 'Biedronka'],
  [27, 'main', -1_450, 'Coffee — Costa'],
  [26, 'main', -12_999, 'PGE electricity'],
  [25, 'main', -4_999, 'Netflix'],
  [23, 'main', -24_310, 'Lidl'],
  [21, 'main', -6_000, 'ZTM monthly ticket'],
  [19, 'main', -8_900, 'Orlen fuel'],
  [17, 'main', -31_245, 'Carrefour'],
  [15, 'main', 12_000, 'BLIK from Kasia — dinner'],
  [14, 'main', -15_500, 'Restaurant — Pierogarnia'],
  [12, 'main', -7_999, 'Play mobile'],
  [10, 'main', -22_140, 'Żabka & Biedronka'],
  [8, 'main', -3_600, 'Pharmacy'],
  [6, 'main', -45_000, 'IKEA'],
  [4, 'main', -19_870, 'Lidl'],
  [2, 'main', -1_250, 'Coffee — Starbucks'],
];

step(`Sandbank at ${baseUrl}`);
const health = await call<{ data: { status: string } }>('GET', '/healthz');
console.log(`  healthz: ${health.data.status}`);

const email = `demo.user+${Date.now()}@example.com`;
step(`Register ${email}`);
const auth = await call<{ data: { user: { id: string }; accessToken: string } }>('POST', '/v1/auth/register', {
  email,
  password: 'demo-password-123',
});
const token = auth.data.accessToken;
console.log(`  user ${auth.data.user.id}`);

step('Open two accounts');
const main = (await call<{ data: { id: string } }>('POST', '/v1/accounts', { name: 'Everyday' }, token)).data;
const savings = (await call<{ data: { id: string } }>('POST', '/v1/accounts', { name: 'Savings' }, token)).data;
console.log(`  Everyday ${main.id}\n  Savings  ${savings.id}`);

step('Start a webhook receiver and register it');
const received: { type: string; amount: number; verified: boolean }[] = [];
// A Standard Webhooks secret: whsec_ + base64 of the key (any Standard Webhooks library reads it as is).
const secret = `whsec_${randomBytes(24).toString('base64')}`;
const receiver = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (chunk: Buffer) => chunks.push(chunk));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    const event = JSON.parse(raw) as { type: string; data: { transaction: { amount: number } } };
    received.push({
      type: event.type,
      amount: event.data.transaction.amount,
      verified: verifySignature(req.headers, raw, secret),
    });
    res.writeHead(204).end();
  });
});
await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/sandbank`;
const events = ['transaction.created', 'transaction.updated', 'transaction.removed'];
await call('POST', '/v1/webhooks', { url: hookUrl, secret, events, clientId: 'demo-budget-app' }, token);
console.log(`  receiving at ${hookUrl}`);

step(`Simulate a month: ${MONTH.length} transactions`);
let balance = 0;
for (const [daysAgo, account, amount, description] of MONTH) {
  const accountId = account === 'main' ? main.id : savings.id;
  const result = await call<{ data: { balance: number } }>(
    'POST',
    '/v1/simulations/transaction',
    { accountId, amount, description, date: day(daysAgo) },
    token,
  );
  if (account === 'main') balance = result.data.balance;
  console.log(`  ${day(daysAgo).slice(0, 10)}  ${description.padEnd(28)} ${pln(amount).padStart(14)}`);
}
console.log(`  Everyday balance: ${pln(balance)}`);

step('A card payment through its lifecycle');
type Result = {
  data: {
    transaction: { id: string; amount: number; status: string; version: number };
    balance: number;
    availableBalance: number;
  };
};
const show = (label: string, result: Result) =>
  console.log(
    `  ${label.padEnd(34)} ${result.data.transaction.status.padEnd(8)} v${result.data.transaction.version} ${pln(result.data.transaction.amount).padStart(12)}   balance ${pln(result.data.balance)}, available ${pln(result.data.availableBalance)}`,
  );
const card = await call<Result>(
  'POST',
  '/v1/simulations/transaction',
  {
    accountId: main.id,
    amount: -8_450,
    status: 'pending',
    merchant: 'Pierogarnia Mandu',
    category: 'restaurants',
    description: 'Card payment',
  },
  token,
);
show('dinner, pending (held)', card);
show(
  'posted two days later with a tip',
  await call<Result>('POST', `/v1/transactions/${card.data.transaction.id}/post`, { amount: -9_450 }, token),
);
const hold = await call<Result>(
  'POST',
  '/v1/simulations/transaction',
  {
    accountId: main.id,
    amount: -25_000,
    status: 'pending',
    merchant: 'Orlen',
    category: 'fuel',
    description: 'Fuel pre-authorisation',
  },
  token,
);
show('fuel pre-authorisation, pending', hold);
show('…voided by the station', await call<Result>('POST', `/v1/transactions/${hold.data.transaction.id}/void`, {}, token));
const ikea = MONTH.findIndex(([, , , description]) => description === 'IKEA');
const history = await call<{ data: { id: string; description: string }[] }>(
  'GET',
  `/v1/accounts/${main.id}/transactions?limit=200`,
  undefined,
  token,
);
const purchase = history.data.find((txn) => txn.description === MONTH[ikea]?.[3]);
show(
  'IKEA refund (partial reversal)',
  await call<Result>('POST', `/v1/transactions/${purchase?.id}/reverse`, { amount: 15_000 }, token),
);
const LIFECYCLE_EVENTS = 5; // created + updated (the card), created + removed (the hold), created (the refund)
const LIFECYCLE_ROWS = 2; // the card and the refund; a voided hold is not in the default history

step('Wait for the signed webhooks');
const expected = MONTH.length + LIFECYCLE_EVENTS;
const deadline = Date.now() + 30_000;
while (received.length < expected && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
const verified = received.filter((event) => event.verified).length;
const kinds = [...new Set(received.map((event) => event.type))].join(', ');
console.log(`  ${received.length}/${expected} deliveries (${kinds}), ${verified} with a valid signature`);
// Checked now: the advance below fires more events, and they are delivered too.
const webhooksOk = received.length === expected && verified === expected;

step('Issue an API key and pull like a budgeting app');
const key = await call<{ data: { id: string; key: string } }>('POST', '/v1/api-keys', { name: 'demo budget app' }, token);
const owner = encodeURIComponent(email.split('@')[0] ?? '');
const pullResponse = await fetch(`${baseUrl}/api/owner/${owner}/transactions?limit=5`, {
  headers: { authorization: `Bearer ${key.data.key}` },
});
const pulled = (await pullResponse.json()) as { data: { description: string; amount: number }[]; meta: { total: number } };
console.log(
  `  GET /api/owner/${decodeURIComponent(owner)}/transactions → ${pullResponse.status}, ${pulled.meta?.total} transactions; newest:`,
);
for (const txn of pulled.data ?? []) console.log(`    ${txn.description.padEnd(28)} ${pln(txn.amount).padStart(14)}`);

step('Link the accounts like a GoCardless Bank Account Data app (nordigen-node: baseUrl = /gocardless/api/v2)');
const gocardless = async <T>(path: string, body?: unknown, access?: string): Promise<T> => {
  const response = await fetch(`${baseUrl}/gocardless/api/v2${path}`, {
    method: body ? 'POST' : 'GET',
    headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const json = (await response.json()) as T & { summary?: string; detail?: string };
  if (!response.ok) throw new Error(`GoCardless ${path} → ${response.status} ${json.summary}: ${json.detail}`);
  return json;
};
const { access } = await gocardless<{ access: string }>('/token/new/', { secret_id: key.data.id, secret_key: key.data.key });
const created = await gocardless<{ id: string; status: string }>(
  '/requisitions/',
  { redirect: 'https://budget.example/callback', institution_id: 'SANDBOXFINANCE_SFIN0000' },
  access,
);
const linked = await gocardless<{ status: string; accounts: string[] }>(`/requisitions/${created.id}/`, undefined, access);
console.log(`  requisition ${created.status} → ${linked.status}, ${linked.accounts.length} accounts linked`);
const gcTransactions = await gocardless<{ transactions: { booked: unknown[]; pending: unknown[] } }>(
  `/accounts/${linked.accounts[0]}/transactions/`,
  undefined,
  access,
);
const gcBalances = await gocardless<{ balances: { balanceType: string; balanceAmount: { amount: string } }[] }>(
  `/accounts/${linked.accounts[0]}/balances/`,
  undefined,
  access,
);
console.log(
  `  first account: ${gcTransactions.transactions.booked.length} booked, ${gcTransactions.transactions.pending.length} pending; ${gcBalances.balances
    .map((balance) => `${balance.balanceType} ${balance.balanceAmount.amount}`)
    .join(', ')}`,
);
const gocardlessOk = linked.status === 'LN' && linked.accounts.length === 2 && gcTransactions.transactions.booked.length > 0;

step('Apply a scenario: twelve months of a Polish family on three accounts (examples/scenarios/family.json)');
const scenario = JSON.parse(readFileSync(fileURLToPath(new URL('../examples/scenarios/family.json', import.meta.url)), 'utf8'));
const applyStarted = performance.now();
const applied = await call<{ data: { accounts: { key: string; name: string }[]; transactions: number; schedules: number } }>(
  'POST',
  '/v1/scenarios/apply',
  { scenario },
  token,
);
console.log(
  `  ${applied.data.transactions} transactions and ${applied.data.schedules} schedule on ${applied.data.accounts
    .map((account) => account.name)
    .join(', ')} in ${Math.round(performance.now() - applyStarted)} ms — the same ones for seed ${scenario.seed}, every time`,
);

step('Advance the clock a month: schedules run, pending card payments post');
const advanced = await call<{
  data: { from: string; now: string; fired: { scheduled: number; settled: number; expired: number } };
}>('POST', '/v1/clock/advance', { by: 'P1M' }, token);
const { fired } = advanced.data;
console.log(
  `  ${advanced.data.from.slice(0, 10)} → ${advanced.data.now.slice(0, 10)}: ${fired.scheduled} scheduled runs, ${fired.settled} settled, ${fired.expired} expired`,
);

step('Point a Plaid app at the same world (docs/faces/plaid.md): link, sync, a card payment posts with a tip');
const plaidKey = await call<{ data: { key: string } }>('POST', '/v1/api-keys', { name: 'demo Plaid app' }, token);
async function plaid<T>(path: string, body: Record<string, unknown>): Promise<T> {
  const headers = { 'content-type': 'application/json', 'PLAID-CLIENT-ID': auth.data.user.id, 'PLAID-SECRET': plaidKey.data.key };
  const response = await fetch(`${baseUrl}/plaid${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
  const json = await response.json();
  if (!response.ok) throw new Error(`/plaid${path} → ${response.status} ${JSON.stringify(json)}`);
  return json as T;
}
type PlaidTxn = {
  transaction_id: string;
  account_id: string;
  amount: number;
  pending: boolean;
  pending_transaction_id: string | null;
};
type PlaidChanges = { added: PlaidTxn[]; modified: PlaidTxn[]; removed: { transaction_id: string }[] };
const { public_token } = await plaid<{ public_token: string }>('/sandbox/public_token/create', {
  institution_id: 'ins_sandbank',
  initial_products: ['transactions'],
});
const { access_token } = await plaid<{ access_token: string }>('/item/public_token/exchange', { public_token });
const plaidLedger = new Map<string, PlaidTxn>();
let plaidCursor: string | null = null;
/** Syncs from the saved cursor (following has_more) until `done` holds for what arrived, as a Plaid app does. */
async function plaidSync(done: (changes: PlaidChanges) => boolean): Promise<PlaidChanges> {
  const all: PlaidChanges = { added: [], modified: [], removed: [] };
  const until = Date.now() + 15_000;
  do {
    for (let more = true; more; ) {
      const page: PlaidChanges & { next_cursor: string; has_more: boolean } = await plaid('/transactions/sync', {
        access_token,
        cursor: plaidCursor,
        count: 500,
      });
      for (const txn of [...page.added, ...page.modified]) plaidLedger.set(txn.transaction_id, txn);
      for (const gone of page.removed) plaidLedger.delete(gone.transaction_id);
      all.added.push(...page.added);
      all.modified.push(...page.modified);
      all.removed.push(...page.removed);
      plaidCursor = page.next_cursor;
      more = page.has_more;
    }
    if (done(all)) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  } while (Date.now() < until);
  return all;
}
await plaidSync(() => true);
console.log(`  linked; the first sync brought ${plaidLedger.size} transactions`);
const lunch = await call<Result>(
  'POST',
  '/v1/simulations/transaction',
  { accountId: main.id, amount: -2_500, status: 'pending', merchant: 'Żabka', category: 'groceries', description: 'ŻABKA Z1234' },
  token,
);
const pendingSeen = await plaidSync((changes) => changes.added.length > 0);
console.log(`  pending:  added ${pendingSeen.added.map((txn) => `${txn.transaction_id} (${txn.amount.toFixed(2)})`).join(', ')}`);
await call('POST', `/v1/transactions/${lunch.data.transaction.id}/post`, { amount: -2_800 }, token);
const postedSeen = await plaidSync((changes) => changes.removed.length > 0);
for (const txn of postedSeen.added) {
  console.log(
    `  posted:   added ${txn.transaction_id} (${txn.amount.toFixed(2)}), pending_transaction_id ${txn.pending_transaction_id}`,
  );
}
console.log(`            removed ${postedSeen.removed.map((gone) => gone.transaction_id).join(', ')}`);
const everyday = await call<{ data: { balance: number } }>('GET', `/v1/accounts/${main.id}`, undefined, token);
const appBalance = [...plaidLedger.values()]
  .filter((txn) => txn.account_id === main.id && !txn.pending)
  .reduce((sum, txn) => sum - Math.round(txn.amount * 100), 0);
console.log(`  the app's ledger: ${pln(appBalance)}; Sandbank: ${pln(everyday.data.balance)} (no double count)`);
const plaidOk =
  appBalance === everyday.data.balance &&
  postedSeen.removed.some((gone) => gone.transaction_id === `pending-${lunch.data.transaction.id}`) &&
  postedSeen.added.some((txn) => txn.pending_transaction_id === `pending-${lunch.data.transaction.id}`);

receiver.close();
const ok =
  plaidOk &&
  pullResponse.ok &&
  gocardlessOk &&
  pulled.meta.total === MONTH.length + LIFECYCLE_ROWS &&
  webhooksOk &&
  applied.data.transactions > 600 &&
  fired.scheduled >= 1 &&
  fired.settled >= 1;
console.log(ok ? '\n✔ demo complete' : '\n✘ demo finished with problems');
process.exit(ok ? 0 : 1);
