/**
 * `sandbank trigger <kind>`: the simulation that makes an event of that kind, on the given account
 * or the first open one (opened when there is none): a posted credit (transaction.created), a
 * pending debit then posted (transaction.updated) or voided (transaction.removed), or a webhook's
 * test event (webhook.test: to the given webhook, or to the only one when the world has exactly one),
 * a payment to an outside IBAN waiting for its clearing session (payment.created), then cancelled
 * (payment.updated) — in PLN (Elixir) or EUR (SEPA), docs/concepts/payments.md.
 */
import type { components } from '@sandbank/client';
import type { Api } from './api.ts';
import { CliError, count, EXIT } from './output.ts';

export const TRIGGER_KINDS = [
  'transaction.created',
  'transaction.updated',
  'transaction.removed',
  'payment.created',
  'payment.updated',
  'webhook.test',
] as const;

/** A checksum-valid IBAN outside the world (a published example), the creditor of triggered payments. */
const CREDITOR = { iban: 'PL61109010140000071219812874', name: 'sandbank trigger' };

type Account = components['schemas']['Account'];

async function accountFor(api: Api, accountId: string | undefined): Promise<Account> {
  const { rest } = api;
  if (accountId) return (await api.answer(rest.GET('/v1/accounts/{id}', { params: { path: { id: accountId } } }))).data;
  const { data } = await api.answer(rest.GET('/v1/accounts', { params: { query: { limit: 100 } } }));
  const open = data.find((account) => account.status === 'open');
  if (open) return open;
  return (await api.answer(rest.POST('/v1/accounts', { body: { name: `sandbank CLI ${Date.now()}` } }))).data;
}

/** The only webhook of the world; none or several is a usage error that names them. */
async function onlyWebhook(api: Api): Promise<string> {
  const shown = 10;
  const { data, meta } = await api.answer(api.rest.GET('/v1/webhooks', { params: { query: { limit: shown } } }));
  const [only] = data;
  if (meta.total === 1 && only) return only.id;
  if (meta.total === 0) {
    throw new CliError('webhook.test needs a webhook, and you have none: register one (POST /v1/webhooks)', EXIT.usage, 'USAGE');
  }
  const more = meta.total > data.length ? `\n  … and ${meta.total - data.length} more (GET /v1/webhooks lists them all)` : '';
  throw new CliError(
    `you have ${count(meta.total, 'webhook')}: choose one with --webhook <id>\n` +
      data.map((webhook) => `  ${webhook.id}  ${webhook.url}`).join('\n') +
      more,
    EXIT.usage,
    'USAGE',
  );
}

export async function trigger(api: Api, kind: string, options: { account?: string; amount: number; webhook?: string }) {
  if (!(TRIGGER_KINDS as readonly string[]).includes(kind)) {
    throw new CliError(`unknown kind ${kind}: one of ${TRIGGER_KINDS.join(', ')}`, EXIT.usage, 'USAGE');
  }
  if (kind === 'webhook.test') {
    const webhook = options.webhook ?? (await onlyWebhook(api));
    const { data } = await api.answer(api.rest.POST('/v1/webhooks/{id}/test', { params: { path: { id: webhook } } }));
    return { kind, webhookId: webhook, eventId: data.eventId, summary: `event ${data.eventId} sent to webhook ${webhook}` };
  }
  const account = await accountFor(api, options.account);
  const simulate = (body: { amount: number; status?: 'pending' }) =>
    api.answer(
      api.rest.POST('/v1/simulations/transaction', {
        body: { accountId: account.id, description: `sandbank trigger ${kind}`, ...body },
      }),
    );
  if (kind === 'transaction.created') {
    const { data } = await simulate({ amount: options.amount });
    return {
      kind,
      accountId: account.id,
      transactionId: data.transaction.id,
      summary: `+${options.amount} ${account.currency} minor units on ${account.id}`,
    };
  }
  // A pending debit (or a payment's hold) needs the money: credit it first when the account is short.
  if (account.availableBalance < options.amount) await simulate({ amount: options.amount });
  if (kind === 'payment.created' || kind === 'payment.updated') return triggerPayment(api, kind, account, options.amount);
  const pending = await simulate({ amount: -options.amount, status: 'pending' });
  const id = pending.data.transaction.id;
  const params = { path: { id } };
  await api.answer(
    kind === 'transaction.updated'
      ? api.rest.POST('/v1/transactions/{id}/post', { params, body: {} })
      : api.rest.POST('/v1/transactions/{id}/void', { params, body: {} }),
  );
  return {
    kind,
    accountId: account.id,
    transactionId: id,
    summary: `-${options.amount} ${account.currency} minor units pending on ${account.id}, then ${kind === 'transaction.updated' ? 'posted' : 'voided'}`,
  };
}

/** A payment to CREDITOR that waits for its session (payment.created); for payment.updated, then cancelled. */
async function triggerPayment(api: Api, kind: 'payment.created' | 'payment.updated', account: Account, amount: number) {
  if (account.currency !== 'PLN' && account.currency !== 'EUR') {
    throw new CliError(
      `payments to an IBAN are in PLN or EUR; account ${account.id} holds ${account.currency}`,
      EXIT.usage,
      'USAGE',
    );
  }
  const body = { fromAccountId: account.id, to: CREDITOR, amount, description: `sandbank trigger ${kind}` };
  const { data } = await api.answer(api.rest.POST('/v1/payments', { body }));
  if (kind === 'payment.updated' && data.status === 'ACTC') {
    await api.answer(api.rest.POST('/v1/payments/{id}/cancel', { params: { path: { id: data.id } } }));
  }
  const then = kind === 'payment.updated' ? ', then cancelled' : '';
  return {
    kind,
    accountId: account.id,
    paymentId: data.id,
    summary: `payment ${data.id} of ${amount} ${account.currency} minor units from ${account.id} (${data.status})${then}`,
  };
}
