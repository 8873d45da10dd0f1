/**
 * Follows `GET /v1/events/stream` (Server-Sent Events, read with fetch so the session's bearer
 * token goes along, parsed with eventsource-parser), apart from React so a test can drive it against
 * the real API. Every (re)connection sends the last event's id as `Last-Event-ID`, so nothing is
 * missed or shown twice.
 *
 * The API ends a stream when its access token stops being good (it expires; its world is removed),
 * with a last `event: error` message (401 UNAUTHENTICATED, no id). Then the stream is opened again at
 * once: the session's fetch answers the 401 by refreshing the token, and a refused refresh signs the
 * user out. Any other end or failure is reported and retried after `retryMs`.
 */
import { createParser } from 'eventsource-parser';
import type { EventItem, EventType } from './types.ts';

/** The API's error body (code, message, traceId) as an Error the error note reads. */
async function refusal(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return Object.assign(new Error(body.message ?? `HTTP ${response.status}`), body);
}

/** Until `signal` aborts. `type`: one event kind to follow, or undefined for all. */
export async function followEvents(options: {
  /** A fetch with the session's access token, refreshed on a 401 (`useAuth().fetch`). */
  fetch: typeof fetch;
  type: EventType | undefined;
  signal: AbortSignal;
  /** Events as they arrive, oldest first. */
  onEvents(events: EventItem[]): void;
  /** The stream is open (`undefined`), or it failed (the error). */
  onState(error: unknown): void;
  retryMs: number;
}): Promise<void> {
  const { signal } = options;
  let cursor: string | undefined;

  /** One connection, until the server ends it: true when it ended because the token did. */
  const follow = async (): Promise<boolean> => {
    const query = options.type ? `?types=${encodeURIComponent(options.type)}` : '';
    const response = await options.fetch(`/v1/events/stream${query}`, {
      headers: { accept: 'text/event-stream', ...(cursor ? { 'last-event-id': cursor } : {}) },
      signal,
    });
    if (!response.ok || !response.body) throw await refusal(response);
    let batch: EventItem[] = [];
    let credentialEnded = false;
    const parser = createParser({
      onEvent(message) {
        if (message.event === 'error') {
          credentialEnded = refusalCode(message.data) === 'UNAUTHENTICATED';
          return;
        }
        if (!message.id) return;
        cursor = message.id;
        batch.push(JSON.parse(message.data) as EventItem);
      },
    });
    options.onState(undefined);
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return credentialEnded;
      parser.feed(decoder.decode(value, { stream: true }));
      if (batch.length === 0) continue;
      const arrived = batch;
      batch = [];
      options.onEvents(arrived);
    }
  };

  while (!signal.aborted) {
    try {
      if (await follow()) continue;
    } catch (error) {
      if (signal.aborted) return;
      options.onState(error);
    }
    await new Promise((resolve) => setTimeout(resolve, options.retryMs));
  }
}

/** The error code of the stream's last message (the API's error body); undefined if it is not one. */
function refusalCode(data: string): string | undefined {
  try {
    return (JSON.parse(data) as { code?: string }).code;
  } catch {
    return undefined;
  }
}
