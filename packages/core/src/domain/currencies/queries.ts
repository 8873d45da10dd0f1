/**
 * The SQL of the world's rates (docs/architecture.md, "The schema"): its seed and the rates pinned in it
 * (fx-rates.ts). The generated rates are computed, never stored (reference-rates.ts).
 */
import type { EntityManager } from '@sandbank/db';

export interface PinRow {
  day: string;
  base: string;
  quote: string;
  rate: string;
}

export interface FxWorldRow {
  fx_seed: number | null;
  pins: PinRow[];
}

/** The world's seed (null: the default) and its pins on the given days; undefined for an unknown user. */
export async function selectFxWorld(em: EntityManager, userId: string, days: string[]): Promise<FxWorldRow | undefined> {
  const [row] = await em.execute<FxWorldRow[]>(
    `select u.fx_seed,
            coalesce((select json_agg(json_build_object('day', to_char(p.day, 'YYYY-MM-DD'), 'base', p.base, 'quote', p.quote,
                                                        'rate', p.rate::text))
                        from fx_rate_pins p where p.user_id = u.id and p.day = any(?::date[])), '[]'::json) as pins
       from users u where u.id = ?`,
    [`{${days.join(',')}}`, userId],
  );
  return row;
}

/** Locks the user's row against other pins (and resets) while one is counted and written. */
export async function lockUserForPin(tx: EntityManager, userId: string): Promise<boolean> {
  const rows = await tx.execute('select 1 from users where id = ? for no key update', [userId]);
  return rows.length > 0;
}

/** How many pins the world holds, and whether it holds one for this day and pair (either way round). */
export async function countPins(
  tx: EntityManager,
  { userId, day, base, quote }: { userId: string; day: string; base: string; quote: string },
): Promise<{ total: number; same: boolean }> {
  const [row] = await tx.execute<{ total: string; same: boolean }[]>(
    `select count(*) as total,
            coalesce(bool_or(day = ?::date and ((base = ? and quote = ?) or (base = ? and quote = ?))), false) as same
       from fx_rate_pins where user_id = ?`,
    [day, base, quote, quote, base, userId],
  );
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
  const [row] = await tx.execute<PinRow[]>(
    `with inverse as (delete from fx_rate_pins where user_id = ? and day = ?::date and base = ? and quote = ?)
     insert into fx_rate_pins (user_id, day, base, quote, rate) values (?, ?::date, ?, ?, ?::numeric)
     on conflict (user_id, day, base, quote) do update set rate = excluded.rate, created_at = now()
     returning to_char(day, 'YYYY-MM-DD') as day, base, quote, rate::text as rate`,
    [userId, day, quote, base, userId, day, base, quote, rate],
  );
  return row;
}

/** Sets the world's seed (null: the default), as a scenario asks. */
export async function updateFxSeed(tx: EntityManager, userId: string, seed: number | null): Promise<void> {
  await tx.execute('update users set fx_seed = ? where id = ?', [seed, userId], 'run');
}

/** Removes the world's pins and its seed (a reset). */
export async function deleteFxWorld(tx: EntityManager, userId: string): Promise<void> {
  await tx.execute('delete from fx_rate_pins where user_id = ?', [userId], 'run');
  await tx.execute('update users set fx_seed = null where id = ?', [userId], 'run');
}

/** Keeps the world's seed and pins in a snapshot (inside its REPEATABLE READ transaction). */
export async function keepFxWorld(tx: EntityManager, { snapshotId, userId }: { snapshotId: string; userId: string }) {
  await tx.execute(
    `with pins as (insert into world_snapshot_fx_rate_pins (snapshot_id, day, base, quote, rate)
                   select ?, day, base, quote, rate from fx_rate_pins where user_id = ?)
     update world_snapshots set fx_seed = (select fx_seed from users where id = ?) where id = ?`,
    [snapshotId, userId, userId, snapshotId],
    'run',
  );
}

/** Copies a snapshot's seed and pins into a world (a fork or a restore), whose pins are none yet. */
export async function copyFxWorld(tx: EntityManager, { snapshotId, userId }: { snapshotId: string; userId: string }) {
  await tx.execute(
    `with pins as (insert into fx_rate_pins (user_id, day, base, quote, rate)
                   select ?, day, base, quote, rate from world_snapshot_fx_rate_pins where snapshot_id = ?)
     update users set fx_seed = (select fx_seed from world_snapshots where id = ?) where id = ?`,
    [userId, snapshotId, snapshotId, userId],
    'run',
  );
}

/** The account's currency and card FX margin (text), if it is the user's. */
export async function selectAccountFx(
  em: EntityManager,
  { userId, accountId }: { userId: string; accountId: string },
): Promise<{ currency: string; card_fx_margin: string } | undefined> {
  const [row] = await em.execute<{ currency: string; card_fx_margin: string }[]>(
    'select currency, card_fx_margin::text as card_fx_margin from accounts where id = ? and user_id = ?',
    [accountId, userId],
  );
  return row;
}
