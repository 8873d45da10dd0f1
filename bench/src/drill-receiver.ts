/**
 * A slow webhook receiver for the drill: keeps deliveries in flight and records idempotency keys.
 * Every 20th request takes `slowMs` instead of `delayMs`, so some deliveries are still in flight
 * (and finish) while PostgreSQL is down.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface DrillReceiver {
  url: string;
  /** event id (idempotency key) → how many times it arrived. */
  received: Map<string, number>;
  inFlight(): number;
  close(): Promise<void>;
}

export async function startDrillReceiver({ delayMs, slowMs }: { delayMs: number; slowMs: number }): Promise<DrillReceiver> {
  const received = new Map<string, number>();
  let inFlight = 0;
  let requests = 0;
  const server = http.createServer((req, res) => {
    inFlight += 1;
    const wait = ++requests % 20 === 0 ? slowMs : delayMs;
    req.resume();
    req.on('end', () => {
      setTimeout(() => {
        const key = req.headers['x-sandbank-idempotency-key'];
        if (typeof key === 'string') received.set(key, (received.get(key) ?? 0) + 1);
        inFlight -= 1;
        res.writeHead(204).end();
      }, wait);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received,
    inFlight: () => inFlight,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
