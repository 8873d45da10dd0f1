/**
 * The world-clock badge on every page: your world's time (its clock: wall time + offset) next to
 * the real time, each labelled, so a timestamp is never read on the wrong clock. It ticks each
 * 15 s from the offset it read; advancing the clock refetches it.
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';

export function WorldClock() {
  const trpc = useTRPC();
  const clock = useQuery(trpc.clock.getClock.queryOptions({}));
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 15_000);
    return () => clearInterval(timer);
  }, []);
  const offsetMs = clock.data?.data.offsetMs;
  const ahead = offsetMs !== undefined && Math.abs(offsetMs) >= 60_000;
  return (
    <p className="world-clock" data-testid="world-clock">
      <span className={ahead ? 'badge warn' : 'badge'}>World time</span>{' '}
      <time data-testid="world-time" dateTime={offsetMs === undefined ? undefined : new Date(now + offsetMs).toISOString()}>
        {offsetMs === undefined ? '…' : formatDateTime(new Date(now + offsetMs).toISOString())}
      </time>
      <span className="muted">
        {' '}
        · real time <time dateTime={new Date(now).toISOString()}>{formatDateTime(new Date(now).toISOString())}</time>
      </span>
    </p>
  );
}
