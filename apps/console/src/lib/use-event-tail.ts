/**
 * Follows the event log as it grows, over `GET /v1/events/stream` (Server-Sent Events, read with
 * fetch so the session's bearer token goes along, parsed with eventsource-parser): the log from
 * the start, then each event as it is committed, in the log's gap-free order. A dropped stream is
 * resumed from the last event's id (`Last-Event-ID`), so nothing is missed or shown twice. Keeps
 * the newest MAX_KEPT in memory. A failure is shown and retried; leaving the page (or changing the
 * filter) ends the stream.
 */
import { createParser } from 'eventsource-parser';
import { useEffect, useState } from 'react';
import { useAuth } from './auth.tsx';
import type { EventItem, EventType } from './types.ts';

const RETRY_MS = 5_000;
const MAX_KEPT = 500;

export interface EventTail {
  events: EventItem[];
  loading: boolean;
  error: unknown;
}

/** The API's error body as an Error the error note reads (code, message, traceId). */
async function refusal(response: Response): Promise<Error> {
  const body = (await response.json().catch(() => ({}))) as { message?: string };
  return Object.assign(new Error(body.message ?? `HTTP ${response.status}`), body);
}

/** `type`: one event kind to follow, or undefined for all. */
export function useEventTail(type: EventType | undefined): EventTail {
  const { fetch: sessionFetch } = useAuth();
  const [tail, setTail] = useState<EventTail>({ events: [], loading: true, error: undefined });

  useEffect(() => {
    const controller = new AbortController();
    let cursor: string | undefined;
    setTail({ events: [], loading: true, error: undefined });

    const follow = async () => {
      const response = await sessionFetch(`/v1/events/stream${type ? `?types=${encodeURIComponent(type)}` : ''}`, {
        headers: { accept: 'text/event-stream', ...(cursor ? { 'last-event-id': cursor } : {}) },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) throw await refusal(response);
      let batch: EventItem[] = [];
      const parser = createParser({
        onEvent(message) {
          if (!message.id) return;
          cursor = message.id;
          batch.push(JSON.parse(message.data) as EventItem);
        },
      });
      setTail((previous) => ({ ...previous, loading: false, error: undefined }));
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        parser.feed(decoder.decode(value, { stream: true }));
        if (batch.length === 0) continue;
        const arrived = batch;
        batch = [];
        setTail((previous) => ({
          events: [...arrived.toReversed(), ...previous.events].slice(0, MAX_KEPT),
          loading: false,
          error: undefined,
        }));
      }
    };

    void (async () => {
      while (!controller.signal.aborted) {
        try {
          await follow();
        } catch (error) {
          if (controller.signal.aborted) return;
          setTail((previous) => ({ ...previous, loading: false, error }));
        }
        await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
      }
    })();
    return () => controller.abort();
  }, [sessionFetch, type]);

  return tail;
}
