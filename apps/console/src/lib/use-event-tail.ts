/**
 * Follows the event log as it grows (follow-events.ts: `GET /v1/events/stream`, resumed from the
 * last event's id when the stream drops or its access token ends, so nothing is missed or shown
 * twice): the log from the start, then each event as it is committed, in the log's gap-free order.
 * Keeps the newest MAX_KEPT in memory. A failure is shown and retried; leaving the page (or
 * changing the filter) ends the stream.
 */
import { useEffect, useState } from 'react';
import { useAuth } from './auth.tsx';
import { followEvents } from './follow-events.ts';
import type { EventItem, EventType } from './types.ts';

const RETRY_MS = 5_000;
const MAX_KEPT = 500;

export interface EventTail {
  events: EventItem[];
  loading: boolean;
  error: unknown;
}

/** `type`: one event kind to follow, or undefined for all. */
export function useEventTail(type: EventType | undefined): EventTail {
  const { fetch: sessionFetch } = useAuth();
  const [tail, setTail] = useState<EventTail>({ events: [], loading: true, error: undefined });

  useEffect(() => {
    const controller = new AbortController();
    setTail({ events: [], loading: true, error: undefined });
    void followEvents({
      fetch: sessionFetch,
      type,
      signal: controller.signal,
      retryMs: RETRY_MS,
      onState: (error) => setTail((previous) => ({ ...previous, loading: false, error })),
      onEvents: (arrived) =>
        setTail((previous) => ({
          events: [...arrived.toReversed(), ...previous.events].slice(0, MAX_KEPT),
          loading: false,
          error: undefined,
        })),
    });
    return () => controller.abort();
  }, [sessionFetch, type]);

  return tail;
}
