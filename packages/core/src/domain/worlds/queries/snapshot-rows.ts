/**
 * The SQL of a snapshot's own row (docs/architecture.md, "The schema"): taking one (snapshots.ts)
 * counts what it keeps and writes it; restoring (restore-snapshot.ts) locks it; the API reads, counts
 * and deletes it. One named function per statement, written with Kysely over the generated tables
 * (`kysely(em)`); the copies of the world's rows are set-wise SQL in snapshots.ts and forks.ts.
 */
import { type EntityManager, kysely, type Row } from '@sandbank/db';
import { sql } from 'kysely';
import { worldNowOf } from '../../clock/queries.ts';
import { SHIFT_MS_SQL } from './snapshots.ts';

/** What a snapshot keeps beyond the world's money and clock, when asked. */
export type SnapshotInclude = 'webhooks' | 'apiKeys';

export type SnapshotRow = Pick<
  Row<'world_snapshots'>,
  'id' | 'name' | 'taken_at' | 'clock_offset_ms' | 'accounts' | 'transactions' | 'schedules' | 'webhooks' | 'api_keys'
> & {
  /** What it was asked to keep, in one order (`webhooks`, `apiKeys`): kept even when there were none. */
  include: SnapshotInclude[];
};

const SNAPSHOT_COLUMNS = [
  'id',
  'name',
  'taken_at',
  'clock_offset_ms',
  'accounts',
  'transactions',
  'schedules',
  'webhooks',
  'api_keys',
  sql<SnapshotInclude[]>`include`.as('include'),
] as const;

export async function snapshotExists(em: EntityManager, userId: string, snapshotId: string): Promise<boolean> {
  const rows = await kysely(em)
    .selectFrom('world_snapshots')
    .select('id')
    .where('id', '=', snapshotId)
    .where('user_id', '=', userId)
    .execute();
  return rows.length > 0;
}

/** The user's snapshot, KEY SHARE locked (it cannot be deleted) until the transaction ends; or undefined. */
export async function lockSnapshot(tx: EntityManager, userId: string, snapshotId: string): Promise<SnapshotRow | undefined> {
  return kysely(tx)
    .selectFrom('world_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('id', '=', snapshotId)
    .where('user_id', '=', userId)
    .forKeyShare()
    .executeTakeFirst();
}

/** How far a copy of the snapshot into the user's world moves its instants, in ms. */
export async function selectShiftMs(tx: EntityManager, userId: string, snapshotId: string): Promise<number> {
  const row = await kysely(tx)
    .selectFrom(['users as u', 'world_snapshots as s'])
    .select(sql<string>`${sql.raw(SHIFT_MS_SQL)}`.as('shift_ms'))
    .where('u.id', '=', userId)
    .where('s.id', '=', snapshotId)
    .executeTakeFirst();
  return Number(row?.shift_ms ?? 0);
}

/** How many snapshots the user owns. */
export async function countSnapshots(em: EntityManager, userId: string): Promise<number> {
  const count = await kysely(em)
    .selectFrom('world_snapshots')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return Number(count?.n ?? 0);
}

/** Makes the transaction REPEATABLE READ: every later statement reads the world as of the first one. Its first statement. */
export async function setRepeatableRead(tx: EntityManager): Promise<void> {
  await sql`set transaction isolation level repeatable read`.execute(kysely(tx));
}

/** The world's now and clock offset, and how many rows of each kind a snapshot of it would keep (text counts). */
export interface WorldToKeepRow {
  /** The world's now (timestamptz text). */
  now: string;
  offset_ms: Row<'users'>['clock_offset_ms'];
  a: string;
  t: string;
  s: string;
  w: string;
  k: string;
  /** Payment files and payments. */
  f: string;
  p: string;
}

export async function selectWorldToKeep(tx: EntityManager, userId: string): Promise<WorldToKeepRow | undefined> {
  return kysely(tx)
    .selectFrom('users as u')
    .select((eb) => {
      const count = (table: 'accounts' | 'transactions' | 'schedules' | 'payment_files' | 'payments') =>
        eb.selectFrom(table).select(eb.fn.countAll<string>().as('n')).whereRef('user_id', '=', 'u.id').$asScalar().$notNull();
      return [
        worldNowOf('u').as('now'),
        'u.clock_offset_ms as offset_ms',
        count('accounts').as('a'),
        count('transactions').as('t'),
        count('schedules').as('s'),
        // The webhooks and keys a snapshot keeps: as keepWebhooks and keepApiKeys (snapshots.ts) choose them.
        eb
          .selectFrom('webhooks as w')
          .select(eb.fn.countAll<string>().as('n'))
          .whereRef('w.user_id', '=', 'u.id')
          .where('w.deleted_at', 'is', null)
          .where('w.plaid_item_id', 'is', null)
          .$asScalar()
          .$notNull()
          .as('w'),
        eb
          .selectFrom('api_keys as k')
          .select(eb.fn.countAll<string>().as('n'))
          .whereRef('k.user_id', '=', 'u.id')
          .where('k.revoked_at', 'is', null)
          .$asScalar()
          .$notNull()
          .as('k'),
        count('payment_files').as('f'),
        count('payments').as('p'),
      ];
    })
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

export interface NewSnapshot {
  id: string;
  ownerId: string;
  name: string;
  takenAt: Date;
  offsetMs: string;
  accounts: number;
  transactions: number;
  schedules: number;
  webhooks: number;
  apiKeys: number;
  include: readonly SnapshotInclude[];
}

export async function insertSnapshot(tx: EntityManager, s: NewSnapshot): Promise<SnapshotRow | undefined> {
  return kysely(tx)
    .insertInto('world_snapshots')
    .values({
      id: s.id,
      user_id: s.ownerId,
      name: s.name,
      taken_at: s.takenAt.toISOString(),
      clock_offset_ms: s.offsetMs,
      accounts: s.accounts,
      transactions: s.transactions,
      schedules: s.schedules,
      webhooks: s.webhooks,
      api_keys: s.apiKeys,
      include: [...s.include],
      created_at: sql<string>`now()`,
    })
    .returning(SNAPSHOT_COLUMNS)
    .executeTakeFirst();
}

/** A page of the user's snapshots, newest first. */
export async function selectSnapshots(
  em: EntityManager,
  { userId, limit, offset }: { userId: string; limit: number; offset: number },
): Promise<SnapshotRow[]> {
  return kysely(em)
    .selectFrom('world_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('user_id', '=', userId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

/** One of the user's snapshots, or undefined. */
export async function selectSnapshot(em: EntityManager, userId: string, id: string): Promise<SnapshotRow | undefined> {
  return kysely(em)
    .selectFrom('world_snapshots')
    .select(SNAPSHOT_COLUMNS)
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Deletes one of the user's snapshots (its rows cascade); the row it was, or undefined. */
export async function deleteSnapshotRow(em: EntityManager, userId: string, id: string): Promise<SnapshotRow | undefined> {
  return kysely(em)
    .deleteFrom('world_snapshots')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(SNAPSHOT_COLUMNS)
    .executeTakeFirst();
}
