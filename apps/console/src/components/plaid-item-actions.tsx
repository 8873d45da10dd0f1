/**
 * What a developer does to a linked Item from the console, as the Plaid face's sandbox calls do
 * (docs/faces/plaid.md): require its login again (the app's calls answer ITEM_LOGIN_REQUIRED and its
 * webhook gets ITEM: ERROR) or repair it (ITEM: LOGIN_REPAIRED), and fire one of its webhooks to its URL.
 * Each sits in the cell it changes; the list refreshes itself after each (the mutation's area, lib/query-client.ts).
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '../lib/trpc.ts';
import type { FireableWebhookCode, PlaidItemSummary } from '../lib/types.ts';
import { ErrorNote } from './error-note.tsx';

/** Every code the API fires (a Record, so a code the API adds or drops fails the typecheck here). */
const CODES = Object.keys({
  SYNC_UPDATES_AVAILABLE: true,
  DEFAULT_UPDATE: true,
  NEW_ACCOUNTS_AVAILABLE: true,
  ERROR: true,
} satisfies Record<FireableWebhookCode, true>) as FireableWebhookCode[];

/** Require login (a linked Item) or Repair login (one in ITEM_LOGIN_REQUIRED), for the Item's status cell. */
export function ItemLoginButton({ item }: { item: PlaidItemSummary }) {
  const trpc = useTRPC();
  const reset = useMutation(trpc.plaid.resetItemLogin.mutationOptions());
  const repair = useMutation(trpc.plaid.repairItem.mutationOptions());
  const busy = reset.isPending || repair.isPending;
  if (item.status !== 'good' && item.status !== 'login_required') return null;
  const required = item.status === 'login_required';
  return (
    <div className="plaid-item-action">
      <button
        type="button"
        className="secondary small"
        disabled={busy}
        onClick={() => (required ? repair : reset).mutate({ id: item.id })}
        title={
          required
            ? 'As Link’s update mode: the Item works again (ITEM: LOGIN_REPAIRED)'
            : 'As /sandbox/item/reset_login: the app’s calls answer ITEM_LOGIN_REQUIRED until repaired (ITEM: ERROR)'
        }
      >
        {required ? 'Repair login' : 'Require login'}
      </button>
      <ErrorNote error={reset.error ?? repair.error} />
    </div>
  );
}

/** Fire one of the Item's webhooks to its URL, for the Item's webhook cell (an Item with a URL, after the exchange). */
export function FireWebhookForm({ item }: { item: PlaidItemSummary }) {
  const trpc = useTRPC();
  const fire = useMutation(trpc.plaid.fireItemWebhook.mutationOptions());
  const [code, setCode] = useState<FireableWebhookCode>('SYNC_UPDATES_AVAILABLE');
  if (!item.webhookUrl || item.status === 'awaiting_exchange' || item.status === 'removed') return null;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    fire.mutate({ id: item.id, code });
  };
  const fired = fire.data?.data;
  return (
    <form className="plaid-item-action fire-webhook" onSubmit={submit} aria-label={`Fire a webhook of ${item.id}`}>
      <select aria-label="Webhook to fire" value={code} onChange={(event) => setCode(event.target.value as FireableWebhookCode)}>
        {CODES.map((each) => (
          <option key={each} value={each}>
            {each}
          </option>
        ))}
      </select>
      <button type="submit" className="secondary small" disabled={fire.isPending}>
        Fire
      </button>
      {fired && (
        <span role="status" className="muted" data-testid="fired">
          {fired.webhookType}: {fired.webhookCode} queued
        </span>
      )}
      <ErrorNote error={fire.error} />
    </form>
  );
}
