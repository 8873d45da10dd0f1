/**
 * The SQL of SimpleFIN's claims (docs/architecture.md, "The schema"): one named function per
 * statement; `setup-tokens.ts` keeps the connect flow.
 */
import type { EntityManager } from '@sandbank/db';

export async function insertClaim(
  em: EntityManager,
  claim: { codeHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await em.execute('insert into simplefin_claims (code_hash, user_id, expires_at) values (?, ?, ?::timestamptz)', [
    claim.codeHash,
    claim.userId,
    claim.expiresAt.toISOString(),
  ]);
}

/**
 * Claims the code if it is unclaimed and unexpired (one conditional UPDATE: of two racing claims
 * exactly one wins); the claim's user, or undefined.
 */
export async function claimCode(tx: EntityManager, codeHash: string): Promise<string | undefined> {
  const [claimed] = await tx.execute<{ user_id: string }[]>(
    `update simplefin_claims set claimed_at = now()
      where code_hash = ? and claimed_at is null and expires_at > now() returning user_id`,
    [codeHash],
  );
  return claimed?.user_id;
}

/** Records the API key a claim created. */
export async function setClaimApiKey(tx: EntityManager, codeHash: string, apiKeyId: string): Promise<void> {
  await tx.execute('update simplefin_claims set api_key_id = ? where code_hash = ?', [apiKeyId, codeHash]);
}

export interface SetAccountRow {
  id: string;
  name: string;
  currency: string;
  balance: string;
  held_amount: string;
}

/** Every account of the user, oldest first (closed ones too). */
export function selectUserAccounts(em: EntityManager, userId: string): Promise<SetAccountRow[]> {
  return em.execute<SetAccountRow[]>(
    'select id, name, currency, balance, held_amount from accounts where user_id = ? order by created_at, id',
    [userId],
  );
}
