/**
 * `sandbank listen --forward-to URL`: follows the event log's stream (GET /v1/events/stream) and
 * POSTs each event to a local URL with the body byte for byte as the stream carried it (the
 * event's webhook body) and Standard Webhooks headers signed with a local secret. One event at a
 * time, in log order; a failed forward is retried with backoff (a new timestamp and signature,
 * the same `webhook-id`), and after the last try the event is reported failed and passed.
 *
 * The resume point is the stream's event id (a log cursor), saved after every delivery, so a
 * listener killed and started again with the same resume file goes on where it stopped: nothing is
 * missed; the event in flight when it died may come twice, with the same `webhook-id`. A dropped
 * stream reconnects with `Last-Event-ID`. The API ends a stream when its access token expires (or
 * is refused: a removed world), with a last `event: error` message: the listener then reconnects at
 * once with a fresh token (the session refreshes it), from the same point, and stops only when the
 * session itself is refused (run `sandbank login`).
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import type { Api } from './api.ts';
import { configDir, readPrivate, writePrivate } from './credentials.ts';
import { CliError, EXIT, type Output } from './output.ts';
import { secretKey, standardHeaders } from './signing.ts';

export interface ListenOptions {
  api: Api;
  out: Output;
  forwardTo: URL;
  events: string[] | undefined;
  secret: string;
  /** Start after this cursor (overrides the resume file). */
  after: string | undefined;
  /** Without a saved resume point: from the first event instead of from now. */
  fromStart: boolean;
  resumeFile: string;
  maxAttempts: number;
  /** The first retry's wait; it doubles per try, up to 8 s. */
  backoffMs: number;
  timeoutMs: number;
  signal: AbortSignal;
}

/** The resume file of one (API, target, kinds): one listener's place in the log. */
export function defaultResumeFile(apiUrl: string, forwardTo: URL, events: string[] | undefined): string {
  const key = createHash('sha256')
    .update(`${apiUrl}\n${forwardTo.href}\n${(events ?? []).join(',')}`)
    .digest('hex')
    .slice(0, 16);
  return path.join(configDir(), 'listen', `${key}.cursor`);
}

interface StreamEvent {
  cursor: string;
  body: string;
  id: string;
  type: string;
}

export async function listen(options: ListenOptions): Promise<void> {
  const { api, out, signal } = options;
  const key = secretKey(options.secret);
  let cursor = options.after ?? (await readPrivate(options.resumeFile))?.trim() ?? undefined;
  const resumed = cursor !== undefined;
  if (!cursor && !options.fromStart) cursor = await endOfLog(api, options.events);
  const c = out.colors;
  out.info(
    `${c.green('Ready!')} Forwarding ${options.events?.join(', ') ?? 'all events'} to ${c.bold(options.forwardTo.href)}\n` +
      `Your local signing secret is ${c.bold(options.secret)} (verify with any Standard Webhooks library)\n` +
      `${resumed ? 'Resuming from the saved point' : options.fromStart && !cursor ? 'From the first event' : 'From now'}; resume file ${options.resumeFile}`,
  );
  let failures = 0;
  while (!signal.aborted) {
    try {
      for await (const event of stream(api, options.events, cursor, signal)) {
        await forward(options, key, event);
        cursor = event.cursor;
        await writePrivate(options.resumeFile, `${cursor}\n`);
        failures = 0;
      }
    } catch (error) {
      if (signal.aborted) break;
      // The token's end, not a failure: a fresh one (refreshed by `api.raw`) goes on from the same point.
      if (error instanceof CredentialEnded) {
        out.info(c.dim(`${error.message}; reconnecting with a fresh token`));
        continue;
      }
      // Refusals other than a dropped connection end the command (a bad token, the stream bound).
      if (error instanceof CliError && error.exitCode !== EXIT.unreachable) throw error;
      failures++;
      const wait = Math.min(500 * 2 ** Math.min(failures, 5), 10_000);
      out.info(c.yellow(`stream interrupted (${error instanceof Error ? error.message : error}); reconnecting in ${wait} ms`));
      await sleep(wait, signal);
    }
  }
}

/** The cursor after the last event readable now: `listen` starts from now. */
async function endOfLog(api: Api, events: string[] | undefined): Promise<string | undefined> {
  let after: string | undefined;
  for (;;) {
    const query = { limit: 200, ...(after ? { after } : {}), ...(events ? { types: events.join(',') } : {}) };
    const page = await api.answer(api.rest.GET('/v1/events', { params: { query } }));
    after = page.meta.nextCursor;
    if (!page.meta.hasMore) return after;
  }
}

/** The stream ended because the API refused its access token from then on (its last message, `event: error`). */
class CredentialEnded extends Error {}

/** The stream's events after `cursor`, until it ends or fails. */
async function* stream(
  api: Api,
  events: string[] | undefined,
  cursor: string | undefined,
  signal: AbortSignal,
): AsyncGenerator<StreamEvent> {
  const query = events ? `?types=${encodeURIComponent(events.join(','))}` : '';
  const controller = new AbortController();
  const stop = () => controller.abort();
  signal.addEventListener('abort', stop, { once: true });
  try {
    let response: Response;
    try {
      response = await api.raw(
        `/v1/events/stream${query}`,
        { accept: 'text/event-stream', ...(cursor ? { 'last-event-id': cursor } : {}) },
        controller.signal,
      );
    } catch (error) {
      if (signal.aborted) return;
      throw error;
    }
    const queue: StreamEvent[] = [];
    let refused: { code?: string; message?: string } | undefined;
    const parser = createParser({
      onEvent(message: EventSourceMessage) {
        if (message.event === 'error') {
          refused = parseRefusal(message.data);
          return;
        }
        if (!message.id) return;
        const { id, type } = JSON.parse(message.data) as { id: string; type: string };
        queue.push({ cursor: message.id, body: message.data, id, type });
      },
    });
    const decoder = new TextDecoder();
    const reader = response.body?.getReader();
    if (!reader) throw new CliError('the stream has no body', EXIT.unreachable);
    for (;;) {
      let chunk: Awaited<ReturnType<typeof reader.read>>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal.aborted) return;
        throw new CliError(`the stream broke: ${error instanceof Error ? error.message : error}`, EXIT.unreachable);
      }
      if (chunk.done) {
        if (refused?.code === 'UNAUTHENTICATED')
          throw new CredentialEnded(`the stream ended: ${refused.message ?? refused.code}`);
        throw new CliError('the stream ended', EXIT.unreachable);
      }
      parser.feed(decoder.decode(chunk.value, { stream: true }));
      while (queue.length > 0) {
        yield queue.shift() as StreamEvent;
        if (signal.aborted) return;
      }
    }
  } finally {
    signal.removeEventListener('abort', stop);
    controller.abort();
  }
}

/** The API's error body of the stream's last message, or nothing readable. */
function parseRefusal(data: string): { code?: string; message?: string } {
  try {
    const body = JSON.parse(data) as { code?: unknown; message?: unknown };
    return {
      ...(typeof body.code === 'string' ? { code: body.code } : {}),
      ...(typeof body.message === 'string' ? { message: body.message } : {}),
    };
  } catch {
    return {};
  }
}

/** Delivers one event with retries; prints one line for it. */
async function forward(options: ListenOptions, key: Buffer, event: StreamEvent): Promise<void> {
  const { out, signal } = options;
  const c = out.colors;
  let last: { status: number | null; error: string | null; durationMs: number } = { status: null, error: null, durationMs: 0 };
  let attempt = 0;
  while (attempt < options.maxAttempts && !signal.aborted) {
    attempt++;
    last = await post(options, key, event);
    if (last.error === null) break;
    if (attempt < options.maxAttempts) await sleep(Math.min(options.backoffMs * 2 ** (attempt - 1), 8_000), signal);
  }
  const ok = last.error === null;
  const at = new Date().toISOString();
  if (out.json) {
    out.result(
      {
        at,
        eventId: event.id,
        type: event.type,
        ok,
        status: last.status,
        error: last.error,
        durationMs: last.durationMs,
        attempts: attempt,
        cursor: event.cursor,
      },
      '',
    );
    return;
  }
  const status = last.status === null ? c.red('---') : ok ? c.green(String(last.status)) : c.red(String(last.status));
  const tail = ok ? '' : c.red(` failed: ${last.error}`);
  const tries = attempt > 1 ? c.dim(` after ${attempt} attempts`) : '';
  out.result(
    null,
    `${c.dim(at.slice(11, 19))}  --> ${status}  ${event.type.padEnd(20)} ${event.id}  ${last.durationMs} ms${tries}${tail}`,
  );
}

async function post(options: ListenOptions, key: Buffer, event: StreamEvent) {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  try {
    const response = await fetch(options.forwardTo, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'sandbank-cli',
        ...standardHeaders(key, event.id, event.body),
      },
      body: event.body,
      signal: AbortSignal.any([AbortSignal.timeout(options.timeoutMs), options.signal]),
    });
    await response.arrayBuffer().catch(() => undefined);
    const ok = response.status >= 200 && response.status < 300;
    return { status: response.status, error: ok ? null : `HTTP ${response.status}`, durationMs: elapsed() };
  } catch (error) {
    const cause = error instanceof Error && error.cause instanceof Error ? error.cause.message : String(error);
    return { status: null, error: cause, durationMs: elapsed() };
  }
}

/** Waits `ms`, or less when `signal` aborts (never rejects). */
function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return delay(ms, undefined, { signal }).catch(() => undefined);
}
