/** A local webhook receiver that records when each transaction's delivery arrived. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** transaction id → arrival time (performance.now()) of its first delivery. */
  arrivals: Map<string, number>;
  received(): number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  let count = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      count += 1;
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { transaction?: { id?: string } } };
        const id = event.data?.transaction?.id;
        if (id && !arrivals.has(id)) arrivals.set(id, performance.now());
      } catch {
        // count it anyway
      }
      res.writeHead(204).end();
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    received: () => count,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
