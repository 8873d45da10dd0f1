/**
 * The SQL of the GoCardless face's requisitions (docs/architecture.md, "The schema"): one named
 * function per statement, written with Kysely over the generated tables (`kysely(em)`);
 * `requisitions.ts` keeps the rules and maps rows to the domain's `Requisition`.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { type RawBuilder, sql } from 'kysely';
import { worldNowOf } from '../clock/queries.ts';

/** An agreement's row; inside another row (`agreementOf`) its instants are JSON's ISO text. */
export type AgreementRow = Row<'gocardless_agreements'>;

const AGREEMENT_COLUMNS = [
  'id',
  'user_id',
  'institution_id',
  'max_historical_days',
  'access_valid_for_days',
  'access_scope',
  'created_at',
  'accepted_at',
] as const;

/** The agreement whose id is the column `agreementId` of the outer statement, as one JSON object. */
const agreementOf = (agreementId: string): RawBuilder<AgreementRow> =>
  sql<AgreementRow>`(select row_to_json(x) from (select ${sql.join(AGREEMENT_COLUMNS.map((column) => sql.ref(column)))}
     from gocardless_agreements ag where ag.id = ${sql.ref(agreementId)}) x)`;

/** How many rows of a face table (agreements, requisitions) the user has. */
export async function countFaceRows(
  tx: EntityManager,
  userId: string,
  table: 'gocardless_agreements' | 'gocardless_requisitions',
): Promise<number> {
  const row = await kysely(tx)
    .selectFrom(table)
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

export async function insertAgreement(
  tx: EntityManager,
  agreement: {
    id: string;
    userId: string;
    institutionId: string;
    maxHistoricalDays: number;
    accessValidForDays: number;
    accessScope: readonly string[];
    createdAt: Date;
  },
): Promise<AgreementRow | undefined> {
  return kysely(tx)
    .insertInto('gocardless_agreements')
    .values({
      id: agreement.id,
      user_id: agreement.userId,
      institution_id: agreement.institutionId,
      max_historical_days: agreement.maxHistoricalDays,
      access_valid_for_days: agreement.accessValidForDays,
      access_scope: [...agreement.accessScope],
      created_at: agreement.createdAt,
    })
    .returning(AGREEMENT_COLUMNS)
    .executeTakeFirst();
}

export async function selectAgreement(em: EntityManager, userId: string, id: string): Promise<AgreementRow | undefined> {
  return kysely(em)
    .selectFrom('gocardless_agreements')
    .select(AGREEMENT_COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

export type LinkedAccountRow = Pick<
  Row<'gocardless_accounts'>,
  'id' | 'account_id' | 'requisition_id' | 'created_at' | 'last_accessed'
> &
  Pick<Row<'accounts'>, 'name' | 'currency' | 'status'> &
  Pick<Row<'users'>, 'email'> &
  Pick<Row<'gocardless_requisitions'>, 'institution_id'> & {
    /** The world's now (timestamptz text). */
    now: string;
    agreement: AgreementRow;
  };

/**
 * A linked account of the user's linked requisitions, or undefined; reading it records the access
 * (`last_accessed`) at the world's now, and the row carries the previous one.
 */
export async function touchLinkedAccount(em: EntityManager, userId: string, id: string): Promise<LinkedAccountRow | undefined> {
  return kysely(em)
    .with('found', (db) =>
      db
        .selectFrom('gocardless_accounts as g')
        .innerJoin('gocardless_requisitions as r', (join) =>
          join.onRef('r.id', '=', 'g.requisition_id').on('r.status', '=', 'LN'),
        )
        .innerJoin('accounts as a', 'a.id', 'g.account_id')
        .innerJoin('users as u', 'u.id', 'g.user_id')
        .select([
          'g.id',
          'g.account_id',
          'a.name',
          'a.currency',
          'a.status',
          'u.email',
          'g.requisition_id',
          'r.institution_id',
          'g.created_at',
          'g.last_accessed',
          worldNowOf('u').as('now'),
          agreementOf('r.agreement_id').as('agreement'),
        ])
        .where('g.id', '=', id)
        .where('g.user_id', '=', userId),
    )
    .with('touched', (db) =>
      db
        .updateTable('gocardless_accounts as g')
        .from('found')
        .set((eb) => ({ last_accessed: eb.ref('found.now') }))
        .whereRef('g.id', '=', 'found.id'),
    )
    .selectFrom('found')
    .selectAll()
    .executeTakeFirst();
}

/** Counts one read of a linked account's scope on a day; the count including it (one atomic upsert). */
export async function incrementDailyAccess(
  em: EntityManager,
  { linkedAccountId, scope, day }: { linkedAccountId: string; scope: string; day: string },
): Promise<number> {
  const row = await kysely(em)
    .insertInto('gocardless_daily_access')
    .values({ account_id: linkedAccountId, scope, day, count: 1 })
    .onConflict((conflict) =>
      conflict.columns(['account_id', 'scope', 'day']).doUpdateSet({ count: sql<number>`gocardless_daily_access.count + 1` }),
    )
    .returning('count')
    .executeTakeFirst();
  return Number(row?.count ?? 0);
}

/** The world's now and the state of a user's API key (the GoCardless face's token names both); or undefined. */
export async function selectTokenKey(
  em: EntityManager,
  userId: string,
  keyId: string,
): Promise<(Pick<Row<'api_keys'>, 'revoked_at' | 'expires_at'> & { now: string; world_expired: boolean }) | undefined> {
  return kysely(em)
    .selectFrom('api_keys as k')
    .innerJoin('users as u', 'u.id', 'k.user_id')
    .select((eb) => [
      worldNowOf('u').as('now'),
      'k.revoked_at',
      'k.expires_at',
      eb
        .exists(
          eb
            .selectFrom('worlds as w')
            .select('w.id')
            .whereRef('w.id', '=', 'u.id')
            .where('w.expires_at', '<=', sql<string>`sandbank_wall_now()`),
        )
        .$castTo<boolean>()
        .as('world_expired'),
    ])
    .where('k.id', '=', keyId)
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** The statuses before the owner's decision. */
const UNDECIDED = ['CR', 'GC', 'SA'];

export type RequisitionRow = Pick<
  Row<'gocardless_requisitions'>,
  'id' | 'user_id' | 'institution_id' | 'redirect' | 'reference' | 'user_language' | 'created_at' | 'step_at'
> & {
  status: 'CR' | 'GC' | 'SA' | 'LN' | 'RJ';
  /** The world's now (timestamptz text). */
  now: string;
  accounts: string[];
  agreement: AgreementRow;
  /** The name of the API key it was created with; null before keys were kept. */
  app_name: string | null;
};

const selectRequisitionRows = (em: EntityManager) =>
  kysely(em)
    .selectFrom('gocardless_requisitions as r')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .select((eb) => [
      'r.id',
      'r.user_id',
      'r.institution_id',
      'r.redirect',
      'r.reference',
      'r.user_language',
      eb.ref('r.status').$castTo<RequisitionRow['status']>().as('status'),
      'r.created_at',
      'r.step_at',
      worldNowOf('u').as('now'),
      eb.selectFrom('api_keys as k').select('k.name').whereRef('k.id', '=', 'r.api_key_id').as('app_name'),
      sql<
        string[]
      >`coalesce((select array_agg(g.id order by g.position) from gocardless_accounts g where g.requisition_id = r.id), '{}')`.as(
        'accounts',
      ),
      agreementOf('r.agreement_id').as('agreement'),
    ]);

export async function selectRequisition(em: EntityManager, userId: string, id: string): Promise<RequisitionRow | undefined> {
  return selectRequisitionRows(em).where('r.id', '=', id).where('r.user_id', '=', userId).executeTakeFirst();
}

/** A page of the user's requisitions, newest first. */
export function selectRequisitions(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<RequisitionRow[]> {
  return selectRequisitionRows(em)
    .where('r.user_id', '=', userId)
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countRequisitions(em: EntityManager, userId: string): Promise<number> {
  return countFaceRows(em, userId, 'gocardless_requisitions');
}

export async function requisitionExists(em: EntityManager, userId: string, id: string): Promise<boolean> {
  const rows = await kysely(em)
    .selectFrom('gocardless_requisitions')
    .select('id')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .execute();
  return rows.length > 0;
}

/** Whether a requisition already uses the agreement. */
export async function agreementInUse(em: EntityManager, agreementId: string): Promise<boolean> {
  const rows = await kysely(em)
    .selectFrom('gocardless_requisitions')
    .select('id')
    .where('agreement_id', '=', agreementId)
    .execute();
  return rows.length > 0;
}

/** Whether another requisition of the user carries this reference. */
export async function referenceTaken(em: EntityManager, userId: string, reference: string): Promise<boolean> {
  const rows = await kysely(em)
    .selectFrom('gocardless_requisitions')
    .select('id')
    .where('user_id', '=', userId)
    .where('reference', '=', reference)
    .execute();
  return rows.length > 0;
}

export async function insertRequisition(
  em: EntityManager,
  row: {
    id: string;
    userId: string;
    agreementId: string;
    institutionId: string;
    redirect: string;
    reference: string;
    userLanguage: string;
    apiKeyId: string;
    now: Date;
  },
): Promise<void> {
  await kysely(em)
    .insertInto('gocardless_requisitions')
    .values({
      id: row.id,
      user_id: row.userId,
      agreement_id: row.agreementId,
      institution_id: row.institutionId,
      redirect: row.redirect,
      reference: row.reference,
      user_language: row.userLanguage,
      api_key_id: row.apiKeyId,
      created_at: row.now,
      step_at: row.now,
    })
    .execute();
}

/** Marks an undecided requisition `status` (LN or RJ) at `now`; its agreement's id, or undefined when it was decided already. */
export async function decideUndecidedRequisition(
  em: EntityManager,
  { userId, id, status, now }: { userId: string; id: string; status: 'LN' | 'RJ'; now: Date },
): Promise<string | undefined> {
  const decided = await kysely(em)
    .updateTable('gocardless_requisitions')
    .set({ status, decided_at: now, step_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where(sql<boolean>`status = any (${UNDECIDED}::text[])`)
    .returning('agreement_id')
    .executeTakeFirst();
  return decided?.agreement_id;
}

/** Links the user's open accounts (null: all of them, oldest first) to the requisition; the rows made. */
export async function insertLinkedAccounts(
  em: EntityManager,
  { userId, requisitionId, accountIds, now }: { userId: string; requisitionId: string; accountIds: string[] | null; now: Date },
): Promise<number> {
  const db = kysely(em);
  const rows = await db
    .insertInto('gocardless_accounts')
    .columns(['id', 'requisition_id', 'account_id', 'user_id', 'position', 'created_at'])
    .expression(
      db
        .selectFrom('accounts as a')
        .select([
          sql<string>`gen_random_uuid()`.as('id'),
          sql<string>`${requisitionId}::uuid`.as('requisition_id'),
          'a.id as account_id',
          'a.user_id',
          sql<number>`row_number() over (order by a.created_at, a.id)`.as('position'),
          sql<string>`${now}::timestamptz`.as('created_at'),
        ])
        .where('a.user_id', '=', userId)
        .where('a.status', '=', 'open')
        .$if(accountIds !== null, (query) => query.where(sql<boolean>`a.id = any(${accountIds}::uuid[])`)),
    )
    .returning('id')
    .execute();
  return rows.length;
}

/** Accepts the agreement at `now`, unless it was accepted before. */
export async function acceptAgreement(em: EntityManager, agreementId: string, now: Date): Promise<void> {
  await kysely(em)
    .updateTable('gocardless_agreements')
    .set({ accepted_at: sql<string>`coalesce(accepted_at, ${now}::timestamptz)` })
    .where('id', '=', agreementId)
    .execute();
}

/** Moves an undecided requisition to `step` if it is at one of the `earlier` steps. */
export async function stepRequisition(
  em: EntityManager,
  { userId, id, step, earlier, now }: { userId: string; id: string; step: string; earlier: readonly string[]; now: Date },
): Promise<void> {
  await kysely(em)
    .updateTable('gocardless_requisitions')
    .set({ status: step, step_at: now })
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .where(sql<boolean>`status = any (${[...earlier]}::text[])`)
    .execute();
}
