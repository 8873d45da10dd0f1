/**
 * Plaid webhooks, on the delivery machinery our own webhooks use (docs/faces/plaid.md):
 * - an Item's webhook URL is a `webhooks` row of its own (`plaid_item_id`, client id `plaid`),
 *   so its deliveries have the attempt log, the retries, redeliver and the per-webhook fairness;
 *   the relay gives it the transaction events of the Item's accounts (SYNC_UPDATES_AVAILABLE) and
 *   the Item's `plaid.webhook` events (what the sandbox calls fire);
 * - the ES256 signing key: generated once, its private JWK sealed with WEBHOOK_ENCRYPTION_KEYS
 *   like webhook secrets, never logged; its public half is what `/webhook_verification_key/get`
 *   serves. A unique index keeps one key current, so two first callers cannot make two. A rotation
 *   (`rotatePlaidSigningKey`) retires the current key and makes a new one with a new `kid`; the old
 *   one is still served, with `expired_at` null, for an overlap, so webhooks it signed before the
 *   rotation still verify; then `expired_at` shows, and Plaid's receivers reject it.
 */
import type { Secrets } from '@sandbank/config';
import type { EntityManager } from '@sandbank/db';
import { generatePlaidSigningKey, sealSecret } from '@sandbank/webhooks';
import { uuidv7 } from '../../lib/ids.ts';
import { generateOpaqueToken } from '../auth/tokens.ts';
import { userNow } from '../clock/clock.ts';
import { PLAID_WEBHOOK_EVENT } from '../events/event-log.ts';
import { checkUserLimit } from '../limits/per-user-limits.ts';
import type { PlaidItem } from './item.ts';
import {
  deleteItemWebhook,
  hasLiveItemWebhook,
  insertEvent,
  insertSigningKey,
  insertSigningKeyIfNone,
  lockSigningKeys,
  retireCurrentSigningKey,
  selectCurrentSigningKey,
  selectSigningKey,
  upsertItemWebhook,
} from './queries.ts';

const TRANSACTION_EVENTS = '{transaction.created,transaction.updated,transaction.removed}';

export interface VerificationKey {
  kid: string;
  publicJwk: Record<string, unknown>;
  createdAt: Date;
  expiredAt: Date | null;
}

/** The current signing key's public half, made (and stored sealed) if there is none yet. */
export async function ensureSigningKey(em: EntityManager, secrets: Secrets): Promise<VerificationKey> {
  for (;;) {
    const current = await selectCurrentSigningKey(em);
    if (current)
      return { kid: current.kid, publicJwk: current.public_jwk, createdAt: new Date(current.created_at), expiredAt: null };
    const key = await generatePlaidSigningKey(uuidv7());
    const sealed = sealSecret(JSON.stringify(key.privateJwk), secrets.encryptionKeys);
    await insertSigningKeyIfNone(em, {
      kid: key.kid,
      ciphertext: sealed.ciphertext,
      keyId: sealed.keyId,
      publicJwk: key.publicJwk,
    });
  }
}

/**
 * A signing key's public half by its `kid`, retired and expired ones too. `expiredAt` is null until
 * the key's expiry has passed (wall time, as `iat` is): a retired key within its overlap still
 * verifies the webhooks it signed, and Plaid's receivers reject a key whose `expired_at` is set.
 */
export async function findVerificationKey(em: EntityManager, kid: string): Promise<VerificationKey | null> {
  const row = await selectSigningKey(em, kid);
  if (!row) return null;
  const expiredAt = row.expired_at ? new Date(row.expired_at) : null;
  return { kid: row.kid, publicJwk: row.public_jwk, createdAt: new Date(row.created_at), expiredAt };
}

/**
 * Retires the current signing key (it signs nothing more; it expires `overlapSeconds` later) and
 * makes a new current one with a new `kid`; answers both kids (`previous` null when there was no
 * key). Rotations are serialised, so two at once make two keys in turn, never two current ones.
 */
export async function rotatePlaidSigningKey(
  em: EntityManager,
  secrets: Secrets,
  { overlapSeconds }: { overlapSeconds: number },
): Promise<{ kid: string; previous: string | null; expiresAt: Date | null }> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 300 || overlapSeconds > 30 * 86_400) {
    throw new RangeError('the overlap must be whole seconds between 5 minutes (Plaid’s iat window) and 30 days');
  }
  const key = await generatePlaidSigningKey(uuidv7());
  const sealed = sealSecret(JSON.stringify(key.privateJwk), secrets.encryptionKeys);
  return em.transactional(async (tx) => {
    await lockSigningKeys(tx);
    const retired = await retireCurrentSigningKey(tx, overlapSeconds);
    await insertSigningKey(tx, { kid: key.kid, ciphertext: sealed.ciphertext, keyId: sealed.keyId, publicJwk: key.publicJwk });
    return { kid: key.kid, previous: retired?.kid ?? null, expiresAt: retired ? new Date(retired.expired_at) : null };
  });
}

/**
 * Points the Item's delivery row at `url` (a new row, or the old one revived), or retires it when
 * `url` is null. Its Standard Webhooks secret is never used (Plaid's deliveries carry the JWT) but the
 * table requires one: a random one, sealed.
 */
export async function syncItemWebhook(
  em: EntityManager,
  { secrets, webhookLimit }: { secrets: Secrets; webhookLimit: number },
  item: PlaidItem,
  url: string | null,
): Promise<void> {
  if (url === null) {
    await deleteItemWebhook(em, item.id);
    return;
  }
  // A new delivery row is one of the user's webhooks: it counts toward LIMIT_WEBHOOKS like any other.
  if (!(await hasLiveItemWebhook(em, item.id))) {
    await checkUserLimit(em, { userId: item.userId, resource: 'webhooks', limit: webhookLimit });
  }
  await ensureSigningKey(em, secrets);
  const sealed = sealSecret(generateOpaqueToken(), secrets.encryptionKeys);
  await upsertItemWebhook(em, {
    id: uuidv7(),
    userId: item.userId,
    url,
    events: TRANSACTION_EVENTS,
    ciphertext: sealed.ciphertext,
    keyId: sealed.keyId,
    itemId: item.id,
  });
}

/** Records a Plaid notification of the Item (`body` without item_id and environment, which delivery adds). */
export async function recordPlaidWebhook(
  em: EntityManager,
  item: PlaidItem,
  body: { webhook_type: string; webhook_code: string } & Record<string, unknown>,
): Promise<void> {
  await insertEvent(em, {
    id: uuidv7(),
    type: PLAID_WEBHOOK_EVENT,
    userId: item.userId,
    payload: { item_id: item.id, body },
    createdAt: await userNow(em, item.userId),
  });
}
