/** The write-ahead log positions that read routing compares (read-routing.ts), read with Kysely (`kysely(em)`). */
import { type EntityManager, kysely } from '@sandbank/db';
import { sql } from 'kysely';

/**
 * The primary's flushed WAL position. A commit acknowledged to the client (synchronous_commit on)
 * is flushed, so this is at or past the end of every write the caller has seen committed, and it is
 * a position the primary has already sent or will send to its standbys (the insert position may
 * hold records not yet flushed, which no standby can have).
 */
export async function selectFlushLsn(em: EntityManager): Promise<string> {
  const row = await kysely(em).selectNoFrom(sql<string>`pg_current_wal_flush_lsn()::text`.as('lsn')).executeTakeFirst();
  return row?.lsn ?? '0/0';
}

export interface ReplayState {
  /** The last WAL position the standby replayed; null when the server is not a standby. */
  lsn: string | null;
  /**
   * How old the last replayed transaction is while more WAL waits to be replayed (replay paused or
   * slow); 0 when everything received is replayed.
   */
  behindMs: number;
}

export async function selectReplayState(em: EntityManager): Promise<ReplayState> {
  const row = await kysely(em)
    .selectNoFrom([
      sql<string | null>`case when pg_is_in_recovery() then pg_last_wal_replay_lsn()::text end`.as('lsn'),
      sql<string>`case when pg_last_wal_receive_lsn() > pg_last_wal_replay_lsn()
        then coalesce(greatest(0, extract(epoch from now() - pg_last_xact_replay_timestamp()) * 1000)::bigint::text, '0')
        else '0' end`.as('behind_ms'),
    ])
    .executeTakeFirst();
  return { lsn: row?.lsn ?? null, behindMs: Number(row?.behind_ms ?? 0) };
}
