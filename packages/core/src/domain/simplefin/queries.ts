/**
 * The SQL of SimpleFIN's claims (docs/architecture.md, "The schema"): one named function per
 * statement, written with Kysely over the generated tables (`kysely(em)`); `setup-tokens.ts` keeps
 * the connect flow.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { sql } from 'kysely';

const NOW = sql<string>`now()`;

export async function insertClaim(
  em: EntityManager,
  claim: { codeHash: string; userId: string; expiresAt: Date },
): Promise<void> {
  await kysely(em)
    .insertInto('simplefin_claims')
    .values({ code_hash: claim.codeHash, user_id: claim.userId, expires_at: claim.expiresAt.toISOString() })
    .execute();
}

/**
 * Claims the code if it is unclaimed and unexpired (one conditional UPDATE: of two racing claims
 * exactly one wins); the claim's user, or undefined.
 */
export async function claimCode(tx: EntityManager, codeHash: string): Promise<string | undefined> {
  const claimed = await kysely(tx)
    .updateTable('simplefin_claims')
    .set({ claimed_at: NOW })
    .where('code_hash', '=', codeHash)
    .where('claimed_at', 'is', null)
    .where('expires_at', '>', NOW)
    .returning('user_id')
    .executeTakeFirst();
  return claimed?.user_id;
}

/** Records the API key a claim created. */
export async function setClaimApiKey(tx: EntityManager, codeHash: string, apiKeyId: string): Promise<void> {
  await kysely(tx).updateTable('simplefin_claims').set({ api_key_id: apiKeyId }).where('code_hash', '=', codeHash).execute();
}

export type SetAccountRow = Pick<Row<'accounts'>, 'id' | 'name' | 'currency' | 'balance' | 'held_amount'>;

/** Every account of the user, oldest first (closed ones too). */
export function selectUserAccounts(em: EntityManager, userId: string): Promise<SetAccountRow[]> {
  return kysely(em)
    .selectFrom('accounts')
    .select(['id', 'name', 'currency', 'balance', 'held_amount'])
    .where('user_id', '=', userId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
