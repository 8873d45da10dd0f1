/** A local webhook receiver that records when each transaction's delivery arrived, and who sent what. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Receiver {
  url: string;
  /** transaction id → arrival time (performance.now()) of its first delivery. */
  arrivals: Map<string, number>;
  /** `webhook-id` header (the event id: the delivery's idempotency key) → requests that carried it. */
  webhookIds: Map<string, number>;
  /** The sender's port of each connection → requests that came over it. */
  requestsByPort: Map<number, number>;
  received(): number;
  /** performance.now() of the latest request (0 before the first). */
  lastArrival(): number;
  close(): Promise<void>;
}

export interface ReceiverOptions {
  /** Called once per new connection with the sender's port (e.g. to find which process opened it). */
  onConnection?: (remotePort: number) => void;
}

export async function startReceiver(options: ReceiverOptions = {}): Promise<Receiver> {
  const arrivals = new Map<string, number>();
  const webhookIds = new Map<string, number>();
  const requestsByPort = new Map<number, number>();
  let count = 0;
  let last = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      count += 1;
      last = performance.now();
      const webhookId = req.headers['webhook-id'];
      if (typeof webhookId === 'string') webhookIds.set(webhookId, (webhookIds.get(webhookId) ?? 0) + 1);
      const port = req.socket.remotePort ?? 0;
      requestsByPort.set(port, (requestsByPort.get(port) ?? 0) + 1);
      try {
        const event = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { data?: { transaction?: { id?: string } } };
        const id = event.data?.transaction?.id;
        if (id && !arrivals.has(id)) arrivals.set(id, last);
      } catch {
        // count it anyway
      }
      res.writeHead(204).end();
    });
  });
  if (options.onConnection) {
    const onConnection = options.onConnection;
    server.on('connection', (socket) => onConnection(socket.remotePort ?? 0));
  }
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    arrivals,
    webhookIds,
    requestsByPort,
    received: () => count,
    lastArrival: () => last,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
