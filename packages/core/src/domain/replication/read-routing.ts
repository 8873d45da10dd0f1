/**
 * Read replicas with read-your-writes (`DATABASE_READ_URL`; docs/operations/high-availability.md,
 * "Read replicas").
 *
 * The read-only paths (history, pull, sync, statements) may read a streaming replica. A caller must
 * never read a state older than its own last write, so every write a caller makes is followed by a
 * read of the primary's flushed WAL position (its LSN), kept in this process per caller (the world's
 * user, or the partner key) and sent back in the `Sandbank-Read-After` response header, which a
 * client (or another API process's client) may send on a later read. Before a replica read, the
 * caller's LSN (the larger of the kept one and the header's) is compared with the replica's replayed
 * position: when the replica has it, the read goes there; otherwise the replica is asked again every
 * few milliseconds, up to `waitMs`, and then the read goes to the primary.
 *
 * Whoever has not written is served by the replica unless it lags: the lag is the age of the oldest
 * primary position (sampled here, at most every PROBE_MS while reads come) that the replica has not
 * replayed, or the replica's own age of its last replayed transaction while WAL waits unreplayed,
 * whichever is larger. Past `maxLagMs`, or when the replica cannot be reached (then for DOWN_MS),
 * reads go to the primary.
 *
 * The replayed position only grows, so the check and the read need not share a connection; they
 * must share a server: `DATABASE_READ_URL` names one replica (or a balancer that keeps this process
 * on one).
 */
import type { EntityManager, Orm } from '@sandbank/db';
import { LRUCache } from 'lru-cache';
import { AppError, isDatabaseUnavailable } from '../../errors.ts';
import { selectFlushLsn, selectReplayState } from './queries.ts';

/** The response header with the caller's last write position, and the request header that asks for it. */
export const READ_AFTER_HEADER = 'Sandbank-Read-After';

/** How fresh the replica's and the primary's positions must be to decide without asking again. */
const PROBE_MS = 100;
/** While waiting for the replica to replay a caller's write, how often to ask. */
const POLL_MS = 5;
/** After the replica failed to answer, how long reads go to the primary before trying it again. */
const DOWN_MS = 1_000;
/** How many callers' last writes are kept (the oldest are forgotten first; the header still works). */
const KEPT_CALLERS = 100_000;

/** A WAL position (`16/B374D848`) as a number; null when the text is not one. */
function parseLsn(text: string | undefined | null): bigint | null {
  const match = /^([0-9A-F]{1,8})\/([0-9A-F]{1,8})$/i.exec(text ?? '');
  if (!match) return null;
  return (BigInt(`0x${match[1]}`) << 32n) + BigInt(`0x${match[2]}`);
}

export interface ReadRoutingOptions {
  primary: Orm;
  replica: Orm;
  /** Reads go to the primary when the replica lags more than this. */
  maxLagMs: number;
  /** How long a read after the caller's write waits for the replica before it reads the primary. */
  waitMs: number;
}

export type ReadSource = 'replica' | 'primary';

interface Replay {
  at: number;
  lsn: bigint;
  behindMs: number;
}

/** A partner key's name as a caller (a user's credentials all name the user: its world is one caller). */
export const partnerCaller = (keyId: string) => `partner:${keyId}`;

/** Replica forks handed out, so the list cache can tell them apart (transaction-list-cache.ts). */
const replicaForks = new WeakSet<EntityManager>();
export const readsReplica = (em: EntityManager) => replicaForks.has(em);

export class ReadRouting {
  readonly #options: ReadRoutingOptions;
  readonly #writes = new LRUCache<string, bigint>({ max: KEPT_CALLERS });
  /** The primary's flushed positions as sampled, oldest first, kept while they may still count as lag. */
  #samples: { at: number; lsn: bigint }[] = [];
  #replay: Replay | null = null;
  #probing: Promise<Replay | null> | null = null;
  #downUntil = 0;
  /** Reads sent to each, and replica reads asked again of the primary (`askPrimaryAgain`). */
  readonly counts: Record<ReadSource | 'askedAgain', number> = { replica: 0, primary: 0, askedAgain: 0 };

  constructor(options: ReadRoutingOptions) {
    this.#options = options;
  }

  /**
   * After a caller's write: the primary's flushed position, kept as the caller's and returned as the
   * header's text. Null when the primary cannot say (the write's own answer stands).
   */
  async recordWrite(caller: string | undefined): Promise<string | null> {
    let text: string;
    try {
      text = await selectFlushLsn(this.#options.primary.em.fork());
    } catch {
      return null;
    }
    const lsn = parseLsn(text);
    if (lsn === null) return null;
    this.#sample(Date.now(), lsn);
    if (caller !== undefined && lsn > (this.#writes.get(caller) ?? 0n)) this.#writes.set(caller, lsn);
    return text;
  }

  /**
   * Where `caller`'s read goes: a replica fork when the replica has replayed the caller's last write
   * (and `readAfter`, a position the client sends) and lags less than the bound; null for the primary.
   */
  async replicaFor(caller: string | undefined, readAfter: bigint | null): Promise<EntityManager | null> {
    const kept = caller === undefined ? undefined : this.#writes.get(caller);
    const target = kept !== undefined && (readAfter === null || kept > readAfter) ? kept : readAfter;
    const source = await this.#decide(target);
    this.counts[source]++;
    if (source === 'primary') return null;
    const em = this.#options.replica.em.fork();
    replicaForks.add(em);
    return em;
  }

  async #decide(target: bigint | null): Promise<ReadSource> {
    const started = Date.now();
    if (started < this.#downUntil) return 'primary';
    let replay = this.#replay;
    if (!replay || started - replay.at > PROBE_MS) replay = await this.#probe(true);
    if (!replay || this.#lagMs(replay) > this.#options.maxLagMs) return 'primary';
    while (target !== null && replay.lsn < target) {
      if (Date.now() - started >= this.#options.waitMs) return 'primary';
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
      replay = await this.#probe(false);
      if (!replay) return 'primary';
    }
    return 'replica';
  }

  /** The replica's replayed position now (one probe shared by every read waiting for it); null when it is unusable. */
  #probe(withPrimary: boolean): Promise<Replay | null> {
    this.#probing ??= (async () => {
      try {
        const primary =
          withPrimary && Date.now() - (this.#samples.at(-1)?.at ?? 0) > PROBE_MS
            ? selectFlushLsn(this.#options.primary.em.fork()).catch(() => null)
            : Promise.resolve(null);
        const [state, flushed] = await Promise.all([selectReplayState(this.#options.replica.em.fork()), primary]);
        const at = Date.now();
        const flushedLsn = parseLsn(flushed);
        if (flushedLsn !== null) this.#sample(at, flushedLsn);
        const lsn = parseLsn(state.lsn);
        // Not a standby (promoted, or the URL names a primary): never read it as a replica.
        if (lsn === null) throw new Error('DATABASE_READ_URL is not a standby');
        this.#replay = { at, lsn, behindMs: state.behindMs };
        return this.#replay;
      } catch {
        this.#replay = null;
        this.#downUntil = Date.now() + DOWN_MS;
        return null;
      } finally {
        this.#probing = null;
      }
    })();
    return this.#probing;
  }

  #sample(at: number, lsn: bigint): void {
    const last = this.#samples.at(-1);
    if (last && lsn <= last.lsn) return;
    this.#samples.push({ at, lsn });
    // Samples older than the bound (and a margin) only ever say "too far behind": the newest of them is enough.
    const horizon = at - this.#options.maxLagMs - 1_000;
    while (this.#samples.length > 1 && (this.#samples[1]?.at ?? at) < horizon) this.#samples.shift();
  }

  /** How far behind the replica is: the age of the oldest sampled primary position it has not replayed. */
  #lagMs(replay: Replay): number {
    const unreplayed = this.#samples.find((sample) => sample.lsn > replay.lsn);
    const sampled = unreplayed ? Math.max(0, replay.at - unreplayed.at) : 0;
    return Math.max(sampled, replay.behindMs);
  }
}

/**
 * The EntityManager a read-only path reads with: a replica fork when `routing` (absent without
 * `DATABASE_READ_URL`) has the caller's writes and `readAfter` (the request's header, refused with 400
 * when it is not a position) and lags less than its bound; `primary` otherwise.
 */
export async function readEntityManager(
  routing: ReadRouting | undefined,
  primary: EntityManager,
  caller: string | undefined,
  readAfter: string | undefined,
): Promise<EntityManager> {
  if (!routing) return primary;
  const after = readAfter === undefined ? null : parseLsn(readAfter);
  if (readAfter !== undefined && after === null) {
    const message = 'Must be a WAL position as the API sent it (e.g. 0/16B3748)';
    throw new AppError('VALIDATION_ERROR', `Invalid ${READ_AFTER_HEADER} header: ${message}`, {
      details: [{ path: READ_AFTER_HEADER, message }],
    });
  }
  return (await routing.replicaFor(caller, after)) ?? primary;
}

/**
 * `read` on the replica when `readEntityManager` allows it, asked again of `primary` when the
 * replica's attempt failed for a reason the primary may not have (`askPrimaryAgain`). For a face's
 * data reads: its checks (credentials, the linked account, a daily counter) run on the primary
 * before, so what the replica is asked for exists unless it is behind, which the retry covers.
 */
export async function readOnReplica<T>(
  routing: ReadRouting | undefined,
  primary: EntityManager,
  { caller, readAfter }: { caller: string | undefined; readAfter: string | undefined },
  read: (em: EntityManager) => Promise<T>,
): Promise<T> {
  const em = await readEntityManager(routing, primary, caller, readAfter);
  if (em === primary || !routing) return read(primary);
  try {
    return await read(em);
  } catch (error) {
    if (!askPrimaryAgain(error)) throw error;
    routing.counts.askedAgain++;
    return read(primary);
  }
}

/**
 * Whether a replica read's failure must be asked of the primary: what the replica does not have yet
 * (a world, an account, a session created by a write this process did not see: another API process's,
 * a sign-up's before its first token, the worker's) reads as absent there; a replica that died under
 * the read, or cancelled it to replay (a recovery conflict), gave no answer. The primary's answer is the one sent.
 */
export function askPrimaryAgain(error: unknown): boolean {
  // A rule's AppError reaches a middleware as the cause of the router's wrapper (trpc.ts, appErrors).
  const appError = error instanceof AppError ? error : (error as { cause?: unknown } | null)?.cause;
  if (appError instanceof AppError) {
    return ['NOT_FOUND', 'UNAUTHENTICATED', 'CURSOR_EXPIRED', 'CONFLICT'].includes(appError.appCode);
  }
  return isDatabaseUnavailable(error) || cancelledByRecovery(error);
}

/** A query the standby cancelled because replay needed what it held (max_standby_streaming_delay). */
function cancelledByRecovery(error: unknown, depth = 0): boolean {
  if (depth > 8 || error === null || typeof error !== 'object') return false;
  const { message, cause } = error as { message?: unknown; cause?: unknown };
  if (typeof message === 'string' && /conflict with recovery/i.test(message)) return true;
  return cancelledByRecovery(cause, depth + 1);
}
