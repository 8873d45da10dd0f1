/**
 * A Plaid Item's delivery (docs/faces/plaid.md): Plaid's body instead of our event, signed with the
 * `Plaid-Verification` JWT instead of Standard Webhooks. A transaction event of the Item's accounts
 * is `TRANSACTIONS: SYNC_UPDATES_AVAILABLE` (the receiver then calls /transactions/sync); a
 * `plaid.webhook` event carries the body the sandbox call asked for. The signing key is the current
 * one (not retired by a rotation), opened from its sealed JWK for this delivery only.
 */
import type { Secrets } from '@sandbank/config';
import { openSecret, PLAID_VERIFICATION_HEADER, signPlaidWebhook } from '@sandbank/webhooks';
import type pg from 'pg';
import { type DeliveryTarget, selectCurrentPlaidSigningKey } from './queries.ts';

export function plaidBody(target: DeliveryTarget & { plaidItemId: string }): string {
  const common = { environment: 'sandbox', item_id: target.plaidItemId };
  if (target.eventType === 'plaid.webhook') {
    const { body } = target.eventPayload as { body: Record<string, unknown> };
    return JSON.stringify({ ...body, ...common });
  }
  return JSON.stringify({
    webhook_type: 'TRANSACTIONS',
    webhook_code: 'SYNC_UPDATES_AVAILABLE',
    ...common,
    initial_update_complete: true,
    historical_update_complete: true,
  });
}

/** The `Plaid-Verification` header for `body`, signed now (wall time) with the current key. */
export async function plaidHeaders(pool: pg.Pool, secrets: Secrets, body: string): Promise<Record<string, string>> {
  const key = await selectCurrentPlaidSigningKey(pool);
  // The API makes the key before any Item webhook exists; without one, the job fails and retries.
  if (!key) throw new Error('no current Plaid signing key');
  const privateJwk = JSON.parse(
    openSecret({ keyId: key.private_key_key_id, ciphertext: key.private_key_ciphertext }, secrets.encryptionKeys),
  );
  return {
    [PLAID_VERIFICATION_HEADER]: await signPlaidWebhook({ kid: key.kid, privateJwk }, body, Math.floor(Date.now() / 1000)),
  };
}
