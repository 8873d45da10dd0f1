/**
 * `GET /v1/events/stream` (docs/guides/webhooks.md): the event log as Server-Sent Events, for the console and
 * `sandbank listen`. Each event is one SSE message: `id` is the log cursor after it (the same
 * opaque cursor as `nextCursor` of GET /v1/events), `data` is the event body byte for byte as its
 * webhooks receive it (one line: JSON has no raw newlines).
 *
 * Gap-free like the cursor (docs/concepts/events-and-sync.md): every read goes through the event log's own `readLog`, which
 * serves only events below the horizon of transactions that can still commit, so an event whose
 * transaction commits late is sent after, never skipped. A client resumes with `Last-Event-ID`
 * (EventSource sends it on reconnection) or `?after=<cursor>`, and sees no gap and no repeat.
 *
 * Written by hand (the wire format is three fields): each batch is one write, and a slow client's
 * buffer is waited on (`drain`) instead of growing. A comment line every `heartbeatMs` keeps
 * proxies from closing an idle stream. A user has at most `LIMIT_EVENT_STREAMS` open streams, and a
 * user with its child worlds at most `LIMIT_FAMILY_EVENT_STREAMS` together (422 LIMIT_EXCEEDED beyond). Every stream ends when the client goes, and all of them end at once
 * on `EventStreams.close()` (the process's shutdown), so closing the server never waits on them.
 *
 * A stream lives no longer than its credential: the access token is asked again, with the API's own
 * `authenticateAccessToken`, when its `exp` passes and every `recheckMs` in between (no query for a
 * user's token, whose verification is cached; one primary-key lookup for a child world's, which
 * refuses once the world is removed or past its TTL). Once refused, the stream sends one last
 * message, `event: error` with the API's error body (no `id`, so `Last-Event-ID` stays the last
 * event's cursor), and ends; the client reconnects with a fresh token and resumes with no gap.
 */

import { setTimeout as delay } from 'node:timers/promises';
import {
  AppError,
  authenticateAccessToken,
  bearerToken,
  cursorOf,
  type Deps,
  familyOf,
  LOG_START,
  type LogPosition,
  positionFromCursor,
  readLog,
  toErrorBody,
} from '@sandbank/core';
import { buildEventBody, EVENT_TYPES, type EventType } from '@sandbank/schemas';
import { TRPCError } from '@trpc/server';
import type { Request, RequestHandler, Response } from 'express';
import { sendError } from './errors.ts';
import type { InFlight } from './in-flight.ts';

export const STREAM_PATH = '/v1/events/stream';

/** The open streams of one app: counted per user, all ended by `close()`. */
export interface EventStreams {
  /** Ends every open stream and refuses new ones (503). */
  close(): void;
  /** Open streams, in all. */
  readonly size: number;
}

export interface StreamOptions {
  /** How often an idle stream reads the log. */
  pollMs?: number;
  /** How often an idle stream sends a comment line. */
  heartbeatMs?: number;
  /** Events read per query. */
  batch?: number;
  /** How often an open stream asks again whether its access token is still good (its expiry ends it on time anyway). */
  recheckMs?: number;
}

/** Who a stream counts against: its world, and the world's family (the user and its child worlds). */
interface StreamOwner {
  userId: string;
  familyId: string;
}

interface Registry extends EventStreams {
  /** A new stream's controller; otherwise which limit refused it. */
  open(owner: StreamOwner, limits: { world: number; family: number }): AbortController | 'world' | 'family';
  done(owner: StreamOwner, controller: AbortController): void;
  closed: boolean;
}

export function eventStreams(): Registry {
  const byUser = new Map<string, Set<AbortController>>();
  const byFamily = new Map<string, number>();
  let size = 0;
  const registry: Registry = {
    closed: false,
    get size() {
      return size;
    },
    open({ userId, familyId }, limits) {
      const mine = byUser.get(userId) ?? new Set();
      if (mine.size >= limits.world) return 'world';
      const family = byFamily.get(familyId) ?? 0;
      if (family >= limits.family) return 'family';
      const controller = new AbortController();
      mine.add(controller);
      byUser.set(userId, mine);
      byFamily.set(familyId, family + 1);
      size++;
      return controller;
    },
    done({ userId, familyId }, controller) {
      const mine = byUser.get(userId);
      if (!mine?.delete(controller)) return;
      size--;
      if (mine.size === 0) byUser.delete(userId);
      const family = (byFamily.get(familyId) ?? 1) - 1;
      if (family === 0) byFamily.delete(familyId);
      else byFamily.set(familyId, family);
    },
    close() {
      registry.closed = true;
      for (const mine of byUser.values()) for (const controller of mine) controller.abort();
    },
  };
  return registry;
}

export function eventStreamHandler(
  deps: Deps,
  inFlight: InFlight,
  streams: EventStreams,
  { pollMs = 200, heartbeatMs = 15_000, batch = 200, recheckMs = 5_000 }: StreamOptions = {},
): RequestHandler {
  const registry = streams as Registry;
  return (req, res) => {
    inFlight.track(stream(req, res)).catch((error: unknown) => {
      if (res.headersSent) {
        deps.logger.warn({ err: error }, 'event stream failed; closed');
        res.end();
      } else if (error instanceof TRPCError) sendError(res, toErrorBody(error, req.id));
      else sendError(res, toErrorBody(error, req.id));
    });
  };

  async function stream(req: Request, res: Response): Promise<void> {
    if (registry.closed) throw new AppError('SERVICE_UNAVAILABLE', 'The server is shutting down');
    const token = bearerToken(req.headers.authorization);
    if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer access token is required');
    const authEm = deps.orm.em.fork();
    const user = await authenticateAccessToken(authEm, deps, token);
    const { types, after } = parseQuery(req);
    const owner = { userId: user.id, familyId: await familyOf(authEm, user.id) };
    const { eventStreams: world, familyEventStreams: family } = deps.config.limits;
    const controller = registry.open(owner, { world, family });
    if (controller === 'world') {
      throw new AppError('LIMIT_EXCEEDED', `At most ${world} open event streams per user (LIMIT_EVENT_STREAMS)`);
    }
    if (controller === 'family') {
      throw new AppError(
        'LIMIT_EXCEEDED',
        `At most ${family} open event streams for a user and its child worlds together (LIMIT_FAMILY_EVENT_STREAMS)`,
      );
    }
    const { signal } = controller;
    const onClose = () => controller.abort();
    res.on('close', onClose);
    // A client that left while it was being authenticated closed before the listener: its place is freed now.
    if (res.closed || req.socket.destroyed) controller.abort();
    // The credential's end stops the loop below; a failure to ask (the database) ends the stream as a failed read would.
    let refusal: AppError | undefined;
    let failure: unknown;
    const watching = watchCredential(deps, token, user.expiresAtMs, recheckMs, signal).then(
      (refused) => {
        refusal = refused;
        controller.abort();
      },
      (error: unknown) => {
        failure = error;
        controller.abort();
      },
    );
    try {
      res.writeHead(200, {
        'Content-Type': 'text/event-stream; charset=utf-8',
        'Cache-Control': 'no-store',
        Connection: 'keep-alive',
        'X-Accel-Buffering': 'no',
      });
      // How long EventSource waits before reconnecting; the comment flushes the headers at once.
      res.write('retry: 2000\n: connected\n\n');
      const em = deps.orm.em.fork();
      const filter = { kind: 'logged', types } as const;
      let position: LogPosition = after;
      let lastWrite = Date.now();
      while (!signal.aborted) {
        const rows = await readLog(em, { userId: user.id, after: position, limit: batch, filter, columns: 'event' });
        if (signal.aborted) break;
        if (rows.length > 0) {
          let chunk = '';
          for (const row of rows) {
            position = { txid: row.txid, seq: row.seq };
            const body = buildEventBody(row);
            // A stored event that does not match the contract (never expected) is skipped, as the log's reader would fail on it.
            if (!body.success) continue;
            chunk += `id: ${cursorOf(position)}\ndata: ${JSON.stringify(body.data)}\n\n`;
          }
          if (chunk && !res.write(chunk)) await drained(res, signal);
          lastWrite = Date.now();
          if (rows.length === batch) continue;
        } else if (Date.now() - lastWrite >= heartbeatMs) {
          res.write(': heartbeat\n\n');
          lastWrite = Date.now();
        }
        await pause(pollMs, signal);
      }
      await watching;
      if (refusal && !res.destroyed) res.write(`event: error\ndata: ${JSON.stringify(toErrorBody(refusal, req.id))}\n\n`);
    } finally {
      controller.abort(); // stops the watch when the loop failed
      await watching;
      res.off('close', onClose);
      registry.done(owner, controller);
      // A client that stopped reading would keep the socket (and what is buffered for it) after its
      // slot is given back: drop it instead of waiting for a flush that never comes.
      if (res.writableNeedDrain) res.destroy();
      else res.end();
      // At shutdown the connection goes too: left idle and kept alive, it would hold the server's close.
      if (registry.closed) req.socket.end();
    }
    if (failure) throw failure;
  }
}

/**
 * Asks the API's own question of the access token at its expiry and every `recheckMs` until then:
 * resolves with the refusal (401 UNAUTHENTICATED) once there is one, or undefined when `signal`
 * aborts first. Any other failure (the database) rejects.
 */
async function watchCredential(
  deps: Deps,
  token: string,
  expiresAtMs: number,
  recheckMs: number,
  signal: AbortSignal,
): Promise<AppError | undefined> {
  const em = deps.orm.em.fork();
  while (!signal.aborted) {
    // At least 1 ms: a timer that fires early asks again at once, never in a busy loop.
    await pause(Math.max(1, Math.min(recheckMs, expiresAtMs - Date.now() + 1)), signal);
    if (signal.aborted) return undefined;
    try {
      await authenticateAccessToken(em, deps, token);
    } catch (error) {
      if (error instanceof AppError && error.appCode === 'UNAUTHENTICATED') return error;
      throw error;
    }
  }
  return undefined;
}

/** `types=a,b` and the resume point: `Last-Event-ID` first (EventSource's reconnection), else `?after=`. */
function parseQuery(req: Request): { types: EventType[] | undefined; after: LogPosition } {
  const raw = req.query as Record<string, unknown>;
  let types: EventType[] | undefined;
  if (raw.types !== undefined) {
    const list = typeof raw.types === 'string' ? raw.types.split(',') : [];
    const unknown = list.filter((kind) => !(EVENT_TYPES as readonly string[]).includes(kind));
    if (list.length === 0 || list.length > EVENT_TYPES.length || unknown.length > 0) {
      throw new AppError('VALIDATION_ERROR', 'Unknown event kinds', {
        details: [{ path: 'types', message: `Comma-separated kinds among ${EVENT_TYPES.join(', ')}` }],
      });
    }
    types = list as EventType[];
  }
  const header = req.headers['last-event-id'];
  const resume = typeof header === 'string' && header !== '' ? header : raw.after;
  if (resume === undefined) return { types, after: LOG_START };
  if (typeof resume !== 'string' || resume.length > 512) {
    throw new AppError('VALIDATION_ERROR', 'The cursor is not valid', {
      details: [{ path: 'after', message: 'Malformed cursor' }],
    });
  }
  return { types, after: positionFromCursor(resume, typeof header === 'string' && header !== '' ? 'Last-Event-ID' : 'after') };
}

function drained(res: Response, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      signal.removeEventListener('abort', done);
      resolve();
    };
    res.on('drain', done);
    signal.addEventListener('abort', done, { once: true });
  });
}

/** Waits `ms`, or less when `signal` aborts (never rejects). */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
