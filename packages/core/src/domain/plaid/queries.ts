/**
 * The SQL of the Plaid face's signing keys and notifications (docs/architecture.md, "The schema"):
 * typed rows and one named function per statement; `notifications.ts` keeps the rules.
 */
import type { EntityManager } from '@sandbank/db';

export interface SigningKeyRow {
  kid: string;
  public_jwk: Record<string, unknown>;
  created_at: Date;
  /** Set only once the expiry has passed (wall time). */
  expired_at: Date | null;
}

/** A sealed private key and its public half, as stored. */
export interface NewSigningKey {
  kid: string;
  ciphertext: string;
  keyId: string;
  publicJwk: Record<string, unknown>;
}

/** The current (not retired) signing key, or undefined. */
export async function selectCurrentSigningKey(em: EntityManager): Promise<Omit<SigningKeyRow, 'expired_at'> | undefined> {
  const [row] = await em.execute<Omit<SigningKeyRow, 'expired_at'>[]>(
    'select kid, public_jwk, created_at from plaid_signing_keys where retired_at is null',
  );
  return row;
}

/** Stores a key as the current one unless there is one already (a racing process made it). */
export async function insertSigningKeyIfNone(em: EntityManager, key: NewSigningKey): Promise<void> {
  await em.execute(
    `insert into plaid_signing_keys (kid, private_key_ciphertext, private_key_key_id, public_jwk)
     values (?, ?, ?, ?::jsonb) on conflict do nothing`,
    [key.kid, key.ciphertext, key.keyId, JSON.stringify(key.publicJwk)],
  );
}

export async function insertSigningKey(tx: EntityManager, key: NewSigningKey): Promise<void> {
  await tx.execute(
    `insert into plaid_signing_keys (kid, private_key_ciphertext, private_key_key_id, public_jwk) values (?, ?, ?, ?::jsonb)`,
    [key.kid, key.ciphertext, key.keyId, JSON.stringify(key.publicJwk)],
  );
}

/** A key by its kid, retired and expired ones too. */
export async function selectSigningKey(em: EntityManager, kid: string): Promise<SigningKeyRow | undefined> {
  const [row] = await em.execute<SigningKeyRow[]>(
    `select kid, public_jwk, created_at, case when expired_at <= now() then expired_at end as expired_at
       from plaid_signing_keys where kid = ?`,
    [kid],
  );
  return row;
}

/** Serialises rotations until the transaction ends. */
export async function lockSigningKeys(tx: EntityManager): Promise<void> {
  await tx.execute(`select pg_advisory_xact_lock(hashtext('plaid_signing_keys'))`);
}

/** Retires the current key, expiring `overlapSeconds` from now; its kid and expiry, or undefined when there was none. */
export async function retireCurrentSigningKey(
  tx: EntityManager,
  overlapSeconds: number,
): Promise<{ kid: string; expired_at: Date } | undefined> {
  const [retired] = await tx.execute<{ kid: string; expired_at: Date }[]>(
    `update plaid_signing_keys set retired_at = now(), expired_at = now() + make_interval(secs => ?)
      where retired_at is null returning kid, expired_at`,
    [overlapSeconds],
  );
  return retired;
}

/** Retires the Item's delivery row (its webhook). */
export async function deleteItemWebhook(em: EntityManager, itemId: string): Promise<void> {
  await em.execute('update webhooks set deleted_at = now(), updated_at = now() where plaid_item_id = ? and deleted_at is null', [
    itemId,
  ]);
}

/** Points the Item's delivery row at `url`: a new row, or the old one revived. */
export async function upsertItemWebhook(
  em: EntityManager,
  row: { id: string; userId: string; url: string; events: string; ciphertext: string; keyId: string; itemId: string },
): Promise<void> {
  await em.execute(
    `insert into webhooks (id, user_id, client_id, url, events, secret_ciphertext, secret_key_id, plaid_item_id)
     values (?, ?, 'plaid', ?, ?::text[], ?, ?, ?)
     on conflict (plaid_item_id) where plaid_item_id is not null
     do update set url = excluded.url, status = 'active', disabled_reason = null, deleted_at = null, updated_at = now()`,
    [row.id, row.userId, row.url, row.events, row.ciphertext, row.keyId, row.itemId],
  );
}

/** Records an event of the user's world (a Plaid notification) at `createdAt`. */
export async function insertEvent(
  em: EntityManager,
  event: { id: string; type: string; userId: string; payload: unknown; createdAt: Date },
): Promise<void> {
  await em.execute('insert into events (id, type, user_id, payload, created_at) values (?, ?, ?, ?::jsonb, ?)', [
    event.id,
    event.type,
    event.userId,
    JSON.stringify(event.payload),
    event.createdAt,
  ]);
}
