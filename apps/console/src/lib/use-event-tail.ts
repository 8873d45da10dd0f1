/**
 * Follows the event log as it grows: reads it from the start in pages (following `nextCursor`),
 * then asks again every two seconds from the last cursor, so each committed event shows up once,
 * in the log's gap-free order. Keeps the newest MAX_KEPT in memory. A failed read is shown and
 * retried; leaving the page (or changing the filter) stops the loop.
 */
import { useEffect, useState } from 'react';
import { useTRPCClient } from './trpc.ts';
import type { EventItem, EventType } from './types.ts';

const POLL_MS = 2_000;
const RETRY_MS = 5_000;
const MAX_KEPT = 500;

export interface EventTail {
  events: EventItem[];
  loading: boolean;
  error: unknown;
}

/** `type`: one event kind to follow, or undefined for all. */
export function useEventTail(type: EventType | undefined): EventTail {
  const client = useTRPCClient();
  const [tail, setTail] = useState<EventTail>({ events: [], loading: true, error: undefined });

  useEffect(() => {
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let after: string | undefined;
    setTail({ events: [], loading: true, error: undefined });

    const read = async () => {
      let wait = POLL_MS;
      try {
        const page = await client.events.listEvents.query({
          limit: 200,
          ...(after ? { after } : {}),
          ...(type ? { types: type } : {}),
        });
        if (stopped) return;
        after = page.meta.nextCursor;
        setTail((previous) => ({
          events: [...page.data.toReversed(), ...previous.events].slice(0, MAX_KEPT),
          loading: page.meta.hasMore && previous.loading,
          error: undefined,
        }));
        if (page.meta.hasMore) wait = 0;
      } catch (error) {
        if (stopped) return;
        setTail((previous) => ({ ...previous, loading: false, error }));
        wait = RETRY_MS;
      }
      timer = setTimeout(read, wait);
    };
    void read();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [client, type]);

  return tail;
}
