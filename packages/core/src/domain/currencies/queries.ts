/**
 * The SQL of the world's rates (docs/architecture.md, "The schema"): its seed and the rates pinned in it
 * (fx-rates.ts). The generated rates are computed, never stored (reference-rates.ts). Written with
 * Kysely over the generated tables (`kysely(em)`), but for the card payment's inputs: a hot
 * statement (`executeHot`, prepared once per connection) whose row is typed from the generated rows.
 */
import { type EntityManager, executeHot, kysely, type Row } from '@sandbank/db';
import { sql } from 'kysely';
import { WORLD_NOW_SQL } from '../clock/queries.ts';

/** A pin as the statements return it: the day as `YYYY-MM-DD`, the rate as PostgreSQL's numeric text. */
export type PinRow = Pick<Row<'fx_rate_pins'>, 'day' | 'base' | 'quote' | 'rate'>;

export interface FxWorldRow {
  fx_seed: Row<'users'>['fx_seed'];
  pins: PinRow[];
}

/** The user's (`users` aliased `u`) pins for which `where` holds, as a JSON list of PinRow. */
const pinsOf = (where: ReturnType<typeof sql>) =>
  sql<PinRow[]>`coalesce((select json_agg(json_build_object('day', to_char(p.day, 'YYYY-MM-DD'), 'base', p.base, 'quote', p.quote,
                                                            'rate', p.rate::text))
                            from fx_rate_pins p where p.user_id = u.id and ${where}), '[]'::json)`;

/** What a card payment's conversion reads, in one prepared statement: its instant and Warsaw day, the account's currency and margin, the world's seed and pins. */
export interface ConversionInputsRow extends FxWorldRow {
  /** The payment's instant: the one given, else the world's now (PostgreSQL's timestamp text). */
  at: string;
  /** Its day in Europe/Warsaw, YYYY-MM-DD. */
  day: string;
  /** Null when the account is not the user's (or gone). */
  currency: Row<'accounts'>['currency'] | null;
  card_fx_margin: Row<'accounts'>['card_fx_margin'] | null;
}

/**
 * The pins of the payment's day and the ten before it: a TARGET closing (at most four days, Easter)
 * shows the last business day's rate, whose pin must be among them.
 */
const CONVERSION_INPUTS = {
  name: 'conversion_inputs',
  sql: `with w as (select u.id, u.fx_seed, coalesce(?::timestamptz, ${WORLD_NOW_SQL}) as at from users u where u.id = ?),
             d as (select w.*, (w.at at time zone 'Europe/Warsaw')::date as day from w)
        select d.fx_seed, d.at, d.day::text as day, a.currency, a.card_fx_margin::text as card_fx_margin,
               coalesce((select json_agg(json_build_object('day', to_char(p.day, 'YYYY-MM-DD'), 'base', p.base, 'quote', p.quote,
                                                           'rate', p.rate::text))
                           from fx_rate_pins p where p.user_id = d.id and p.day between d.day - 10 and d.day), '[]'::json) as pins
          from d left join accounts a on a.id = ? and a.user_id = d.id`,
};

/** The conversion's inputs (see ConversionInputsRow); undefined for an unknown user. */
export async function selectConversionInputs(
  em: EntityManager,
  { userId, accountId, at }: { userId: string; accountId: string; at: Date | null },
): Promise<ConversionInputsRow | undefined> {
  const [row] = await executeHot<ConversionInputsRow>(em, CONVERSION_INPUTS, [at?.toISOString() ?? null, userId, accountId]);
  return row;
}

/** The world's seed (null: the default) and its pins on the given days; undefined for an unknown user. */
export async function selectFxWorld(em: EntityManager, userId: string, days: string[]): Promise<FxWorldRow | undefined> {
  return kysely(em)
    .selectFrom('users as u')
    .select(['u.fx_seed', pinsOf(sql`p.day = any(${`{${days.join(',')}}`}::date[])`).as('pins')])
    .where('u.id', '=', userId)
    .executeTakeFirst();
}

/** Locks the user's row against other pins (and resets) while one is counted and written. */
export async function lockUserForPin(tx: EntityManager, userId: string): Promise<boolean> {
  const rows = await kysely(tx).selectFrom('users').select('id').where('id', '=', userId).forNoKeyUpdate().execute();
  return rows.length > 0;
}

/** How many pins the world holds, and whether it holds one for this day and pair (either way round). */
export async function countPins(
  tx: EntityManager,
  { userId, day, base, quote }: { userId: string; day: string; base: string; quote: string },
): Promise<{ total: number; same: boolean }> {
  const row = await kysely(tx)
    .selectFrom('fx_rate_pins')
    .select((eb) => [
      eb.fn.countAll<string>().as('total'),
      sql<boolean>`coalesce(bool_or(${eb.and([
        eb('day', '=', day),
        eb.or([
          eb.and([eb('base', '=', base), eb('quote', '=', quote)]),
          eb.and([eb('base', '=', quote), eb('quote', '=', base)]),
        ]),
      ])}), false)`.as('same'),
    ])
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return { total: Number(row?.total ?? 0), same: row?.same ?? false };
}

/**
 * Pins `rate` for (day, base, quote) in the world, replacing a pin of the same pair that day and removing
 * one of the inverse pair (one pair, one rate); the stored rate as PostgreSQL keeps it.
 */
export async function upsertPin(
  tx: EntityManager,
  { userId, day, base, quote, rate }: { userId: string; day: string; base: string; quote: string; rate: string },
): Promise<PinRow | undefined> {
  return kysely(tx)
    .with('inverse', (db) =>
      db
        .deleteFrom('fx_rate_pins')
        .where('user_id', '=', userId)
        .where('day', '=', day)
        .where('base', '=', quote)
        .where('quote', '=', base),
    )
    .insertInto('fx_rate_pins')
    .values({ user_id: userId, day, base, quote, rate: sql<string>`${rate}::numeric` })
    .onConflict((conflict) =>
      conflict
        .columns(['user_id', 'day', 'base', 'quote'])
        .doUpdateSet((eb) => ({ rate: eb.ref('excluded.rate'), created_at: sql`now()` })),
    )
    .returning([sql<string>`to_char(day, 'YYYY-MM-DD')`.as('day'), 'base', 'quote', sql<string>`rate::text`.as('rate')])
    .executeTakeFirst();
}

/** Sets the world's seed (null: the default), as a scenario asks. */
export async function updateFxSeed(tx: EntityManager, userId: string, seed: number | null): Promise<void> {
  await kysely(tx).updateTable('users').set({ fx_seed: seed }).where('id', '=', userId).execute();
}

/** Removes the world's pins and its seed (a reset). */
export async function deleteFxWorld(tx: EntityManager, userId: string): Promise<void> {
  const db = kysely(tx);
  await db.deleteFrom('fx_rate_pins').where('user_id', '=', userId).execute();
  await db.updateTable('users').set({ fx_seed: null }).where('id', '=', userId).execute();
}

/** Keeps the world's seed and pins in a snapshot (inside its REPEATABLE READ transaction). */
export async function keepFxWorld(tx: EntityManager, { snapshotId, userId }: { snapshotId: string; userId: string }) {
  await kysely(tx)
    .with('pins', (db) =>
      db
        .insertInto('world_snapshot_fx_rate_pins')
        .columns(['snapshot_id', 'day', 'base', 'quote', 'rate'])
        .expression(
          db
            .selectFrom('fx_rate_pins')
            .select([sql<string>`${snapshotId}::uuid`.as('snapshot_id'), 'day', 'base', 'quote', 'rate'])
            .where('user_id', '=', userId),
        ),
    )
    .updateTable('world_snapshots')
    .set((eb) => ({ fx_seed: eb.selectFrom('users').select('fx_seed').where('id', '=', userId) }))
    .where('id', '=', snapshotId)
    .execute();
}

/** Copies a snapshot's seed and pins into a world (a fork or a restore), whose pins are none yet. */
export async function copyFxWorld(tx: EntityManager, { snapshotId, userId }: { snapshotId: string; userId: string }) {
  await kysely(tx)
    .with('pins', (db) =>
      db
        .insertInto('fx_rate_pins')
        .columns(['user_id', 'day', 'base', 'quote', 'rate'])
        .expression(
          db
            .selectFrom('world_snapshot_fx_rate_pins')
            .select([sql<string>`${userId}::uuid`.as('user_id'), 'day', 'base', 'quote', 'rate'])
            .where('snapshot_id', '=', snapshotId),
        ),
    )
    .updateTable('users')
    .set((eb) => ({ fx_seed: eb.selectFrom('world_snapshots').select('fx_seed').where('id', '=', snapshotId) }))
    .where('id', '=', userId)
    .execute();
}
