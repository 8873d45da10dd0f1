/**
 * `pnpm --filter @sandbank/bench stream`: the event stream's fan-out (GET /v1/events/stream).
 *
 * One user, BENCH_STREAM_LISTENERS (50) SSE listeners on that user's stream, then
 * BENCH_STREAM_EVENTS (2000) simulations booked by 16 clients. Measured: the booking rate (the
 * reference, in the same sitting), each listener's receiving rate from the first booking to its
 * last event, their ratio (1.0: the listeners keep up with the bookings), the aggregate events/s
 * written to all listeners, and how long after the last booking the last listener had everything.
 * The API runs as its production process (no worker: the stream reads the log, not deliveries) on
 * an embedded PostgreSQL of its own (BENCH_PG_PORT) or BENCH_DATABASE_URL's server.
 */
import fs from 'node:fs';
import path from 'node:path';
import { seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';

const PORT = Number(process.env.BENCH_PORT ?? 3920);
const LISTENERS = Number(process.env.BENCH_STREAM_LISTENERS ?? 50);
const EVENTS = Number(process.env.BENCH_STREAM_EVENTS ?? 2000);
const CLIENTS = 16;
const baseUrl = `http://127.0.0.1:${PORT}`;

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_stream_bench');
const env = { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1', LIMIT_EVENT_STREAMS: String(LISTENERS + 10) };
const api = spawnApp(APP_ENTRY.api, env);
await waitFor200(`${baseUrl}/readyz`, performance.now());
const [user] = await seedUsers(baseUrl, { users: 1, accountsPerUser: 4, webhookUrl: null });
if (!user) throw new Error('no user seeded');
const seeded = user.accountIds.length; // one opening-balance event per account

interface Listener {
  received: number;
  lastAt: number;
  abort: AbortController;
}

/** A listener counting the stream's messages (each ends with a blank line and carries an id). */
async function listen(): Promise<Listener> {
  const listener: Listener = { received: 0, lastAt: 0, abort: new AbortController() };
  const response = await fetch(`${baseUrl}/v1/events/stream`, {
    headers: { authorization: `Bearer ${user?.token}` },
    signal: listener.abort.signal,
  });
  if (response.status !== 200) throw new Error(`stream → ${response.status} ${await response.text()}`);
  const reader = response.body?.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  void (async () => {
    try {
      for (;;) {
        const chunk = await reader?.read();
        if (!chunk || chunk.done) return;
        buffer += decoder.decode(chunk.value, { stream: true });
        const messages = buffer.split('\n\n');
        buffer = messages.pop() ?? '';
        const events = messages.filter((message) => message.startsWith('id: ')).length;
        if (events > 0) {
          listener.received += events;
          listener.lastAt = performance.now();
        }
      }
    } catch {}
  })();
  return listener;
}

const listeners = await Promise.all(Array.from({ length: LISTENERS }, listen));
const waitUntil = async (check: () => boolean, timeoutMs: number) => {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  return true;
};
await waitUntil(() => listeners.every((listener) => listener.received >= seeded), 30_000);
console.log(`${LISTENERS} listeners on one user's stream; booking ${EVENTS} simulations with ${CLIENTS} clients`);

const started = performance.now();
let sent = 0;
let booked = 0;
await Promise.all(
  Array.from({ length: CLIENTS }, async () => {
    while (sent < EVENTS) {
      const accountId = user.accountIds[sent++ % user.accountIds.length];
      const response = await fetch(`${baseUrl}/v1/simulations/transaction`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${user.token}` },
        body: JSON.stringify({ accountId, amount: 100, description: 'stream bench' }),
      });
      await response.arrayBuffer();
      if (response.status === 201) booked += 1;
    }
  }),
);
const bookedAt = performance.now();
const complete = await waitUntil(() => listeners.every((listener) => listener.received >= seeded + booked), 120_000);
const bookingSeconds = (bookedAt - started) / 1000;
const perListener = listeners
  .map((listener) => (listener.received - seeded) / ((listener.lastAt - started) / 1000))
  .sort((a, b) => a - b);
const median = perListener[Math.floor(perListener.length / 2)] ?? 0;
const slowest = perListener[0] ?? 0;
const lastAt = Math.max(...listeners.map((listener) => listener.lastAt));
const bookingsPerSecond = booked / bookingSeconds;
const results = {
  date: new Date().toISOString(),
  listeners: LISTENERS,
  events: booked,
  complete,
  bookingsPerSecond: Math.round(bookingsPerSecond),
  perListenerEventsPerSecond: { median: Math.round(median), slowest: Math.round(slowest) },
  ratioToBookings: {
    median: Number((median / bookingsPerSecond).toFixed(3)),
    slowest: Number((slowest / bookingsPerSecond).toFixed(3)),
  },
  aggregateEventsPerSecond: Math.round((booked * LISTENERS) / ((lastAt - started) / 1000)),
  lastListenerDoneAfterLastBookingMs: Math.round(lastAt - bookedAt),
  apiPeakRssMiB: api.peakRssMiB(),
};
console.table({
  'bookings/s (reference)': results.bookingsPerSecond,
  'per listener events/s (median)': results.perListenerEventsPerSecond.median,
  'per listener events/s (slowest)': results.perListenerEventsPerSecond.slowest,
  'ratio to bookings (median)': results.ratioToBookings.median,
  [`events/s to all ${LISTENERS} listeners`]: results.aggregateEventsPerSecond,
  'last listener done after the last booking (ms)': results.lastListenerDoneAfterLastBookingMs,
  'every listener got every event': String(complete),
});
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
const file = path.join(root, 'bench/results', `${results.date.slice(0, 10)}-stream.json`);
fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`wrote ${path.relative(root, file)}`);

for (const listener of listeners) listener.abort.abort();
await api.stop();
await server.stop();
process.exit(complete ? 0 : 1);
