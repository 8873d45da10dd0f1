/**
 * One world with something on every page, made through the public API and the faces as an app
 * would: an account full of wide things (long names, a long RRULE), a posted transaction and its
 * partial reversal, a pending hold, a webhook with a delivery, an API key and a revoked one, a
 * GoCardless requisition, a Plaid Item, an Enable Banking application with a session and a payment,
 * a snapshot and a child world forked from it.
 */
import { callApi, callGoCardless, callPlaid, enableBankingPayment, enableBankingSession, registerUser } from './api.ts';
import type { ConsoleStack } from './stack.ts';

/** The account's balance after the seed: the salary, less its partial reversal, and the ping (the hold is pending). */
export const SEEDED_BALANCE = 1_234_567 - 34_567 + 100;

export interface SeededWorld {
  accountId: string;
  salaryId: string;
  holdId: string;
  hookId: string;
  requisitionId: string;
  snapshotId: string;
}

export async function seedWideWorld(stack: Pick<ConsoleStack, 'url' | 'receiver'>, email: string): Promise<SeededWorld> {
  const call = <T>(method: string, path: string, token: string | undefined, body?: unknown) =>
    callApi<T>(stack.url, method, path, token, body);
  const { accessToken: token, user } = await registerUser(stack.url, email);
  const account = await call<{ id: string }>('POST', '/v1/accounts', token, { name: 'Wspólne konto oszczędnościowe na wakacje' });
  const { transaction: salary } = await call<{ transaction: { id: string } }>('POST', '/v1/simulations/transaction', token, {
    accountId: account.id,
    amount: 1_234_567,
    description: 'Wynagrodzenie za listopad — Przedsiębiorstwo Handlowo-Usługowe',
    merchant: 'Przedsiębiorstwo Handlowo-Usługowe „Zorza” sp. z o.o.',
  });
  await call('POST', `/v1/transactions/${salary.id}/reverse`, token, { amount: 34_567 });
  const { transaction: hold } = await call<{ transaction: { id: string } }>('POST', '/v1/simulations/transaction', token, {
    accountId: account.id,
    amount: -4_200,
    description: 'Card hold',
    status: 'pending',
  });
  await call('POST', `/v1/accounts/${account.id}/schedules`, token, {
    amount: -250_000,
    description: 'Czynsz',
    rrule: 'FREQ=MONTHLY;BYMONTHDAY=1,2,3,4,5,6,7,8,9,10,11,12,13,14,15;BYHOUR=9;BYMINUTE=0;BYSECOND=0;COUNT=120',
  });
  const hook = await call<{ id: string }>('POST', '/v1/webhooks', token, {
    url: `${stack.receiver.url}/hooks/a-rather-long-path/for-the-sandbank-webhooks/that-goes-on`,
    secret: 'whsec-test-0123456789abcdef',
    events: ['transaction.created', 'transaction.updated', 'transaction.removed'],
    clientId: 'a-client-with-a-long-name',
  });
  await call('POST', '/v1/simulations/transaction', token, { accountId: account.id, amount: 100, description: 'Ping' });
  await stack.receiver.waitFor(1);
  const key = await call<{ id: string; key: string }>('POST', '/v1/api-keys', token, {
    name: 'Budżet domowy — aplikacja na telefon',
  });
  const revoked = await call<{ id: string }>('POST', '/v1/api-keys', token, { name: 'Stary klucz' });
  await call('DELETE', `/v1/api-keys/${revoked.id}`, token);

  // GoCardless: the app asks for a requisition with the key's pair.
  const { access } = await callGoCardless<{ access: string }>(stack.url, '/token/new/', {
    secret_id: key.id,
    secret_key: key.key,
  });
  const requisition = await callGoCardless<{ id: string }>(
    stack.url,
    '/requisitions/',
    { redirect: `${stack.url}/healthz`, institution_id: 'SANDBANK_DATY_SNDBPLP1', reference: 'budget-app-1' },
    access,
  );

  // Plaid: the app links an Item (client_id = user id, secret = an API key).
  const plaid = async (path: string, body: Record<string, unknown>) => {
    const answer = await callPlaid(stack.url, path, { client_id: user.id, secret: key.key }, body);
    if (answer.status !== 200) throw new Error(`${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  const created = await plaid('/sandbox/public_token/create', {
    institution_id: 'ins_sandbank',
    initial_products: ['transactions'],
  });
  await plaid('/item/public_token/exchange', { public_token: created.public_token });

  // Enable Banking: an application with a session, and a payment linked at once (an Elixir payment).
  const { application } = await enableBankingSession(stack.url, token, 'Budżet domowy — aplikacja Enable Banking');
  await enableBankingPayment(stack.url, application, {
    amount: '12.34',
    creditor: 'Spółdzielnia Mieszkaniowa „Przyszłość” w Warszawie',
    aspsp: 'Sandbank Sandbox',
  });

  const snapshot = await call<{ id: string }>('POST', '/v1/sandbox/snapshots', token, { name: 'Rodzina, rok historii' });
  await call('POST', '/v1/worlds', token, { snapshotId: snapshot.id, ttl: 'PT1H' });
  return {
    accountId: account.id,
    salaryId: salary.id,
    holdId: hold.id,
    hookId: hook.id,
    requisitionId: requisition.id,
    snapshotId: snapshot.id,
  };
}
