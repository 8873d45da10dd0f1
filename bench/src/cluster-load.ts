/**
 * The cluster drill's load, through the public API: each client books a simulation with a
 * client-chosen `externalTxnId` (retrying the same id until it is answered: the API is
 * idempotent on it), then reads the booking back (`GET /v1/transactions/{id}`) and counts a read
 * that does not show its own acknowledged write as stale. Every answer is classified: 2xx, 503
 * with `Retry-After` (what a failover may answer), and client errors — any other failure, an
 * answer without `Retry-After`, a dropped connection or no answer in time.
 */
import type { DrillAccount } from './drill-load.ts';

export interface LoadCounters {
  attempts: number;
  acknowledged: number;
  reads: number;
  /** 503 SERVICE_UNAVAILABLE with `Retry-After`. */
  unavailable: number;
  /** Everything else that is not a 2xx: status → count ('network' for a dropped connection or a timeout). */
  clientErrors: Record<string, number>;
  staleReads: number;
}

export interface ClusterLoad {
  /** externalTxnId → the transaction id its 2xx answered with. */
  acknowledged: Map<string, string>;
  /** When the request of the latest acknowledged booking was sent (performance.now()). */
  lastAcknowledgedAt(): number;
  counters(): LoadCounters;
  stop(): Promise<void>;
}

const REQUEST_TIMEOUT_MS = 20_000;
/** Each client's pause between bookings: the load stays below what the worker delivers on 2 cores. */
const THINK_MS = 100;

export function startClusterLoad(baseUrl: string, accounts: DrillAccount[], clients: number): ClusterLoad {
  const acknowledged = new Map<string, string>();
  const counters: LoadCounters = { attempts: 0, acknowledged: 0, reads: 0, unavailable: 0, clientErrors: {}, staleReads: 0 };
  let lastAck = 0;
  let running = true;
  const clientError = (kind: string) => {
    counters.clientErrors[kind] = (counters.clientErrors[kind] ?? 0) + 1;
  };

  /** One request: the parsed body of a 2xx, 'retry' after a 503 with Retry-After or a client error, or the status. */
  async function call(
    path: string,
    token: string,
    body?: unknown,
  ): Promise<{ status: number; json?: unknown; sentAt: number } | 'retry'> {
    counters.attempts += 1;
    const sentAt = performance.now();
    try {
      const response = await fetch(baseUrl + path, {
        method: body === undefined ? 'GET' : 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      const json = (await response.json()) as unknown;
      if (response.status === 503 && response.headers.get('retry-after')) {
        counters.unavailable += 1;
        return 'retry';
      }
      if (response.status >= 500 || response.status === 429 || response.status === 503) {
        clientError(String(response.status));
        return 'retry';
      }
      return { status: response.status, json, sentAt };
    } catch {
      clientError('network');
      return 'retry';
    }
  }

  async function client(index: number): Promise<void> {
    let n = 0;
    while (running) {
      const account = accounts[(index + n) % accounts.length] as DrillAccount;
      const externalTxnId = `drill-${index}-${n++}`;
      const amount = n % 3 === 0 ? -700 : 1000;
      let transactionId: string | undefined;
      let sentAt = 0;
      for (let tries = 0; tries < 200 && running && !transactionId; tries++) {
        const outcome = await call('/v1/simulations/transaction', account.token, {
          accountId: account.accountId,
          amount,
          externalTxnId,
          description: 'drill',
        });
        if (outcome !== 'retry') {
          const data = (outcome.json as { data?: { transaction?: { id: string } } }).data;
          if (outcome.status < 300 && data?.transaction) {
            transactionId = data.transaction.id;
            sentAt = outcome.sentAt;
          } else {
            clientError(String(outcome.status));
            break;
          }
        } else await new Promise((resolve) => setTimeout(resolve, 200));
      }
      if (!transactionId) continue;
      acknowledged.set(externalTxnId, transactionId);
      counters.acknowledged += 1;
      lastAck = Math.max(lastAck, sentAt);
      // Read it back: the caller's own acknowledged write must be there.
      for (let tries = 0; tries < 200 && running; tries++) {
        const outcome = await call(`/v1/transactions/${transactionId}`, account.token);
        if (outcome === 'retry') {
          await new Promise((resolve) => setTimeout(resolve, 200));
          continue;
        }
        counters.reads += 1;
        if (outcome.status === 404) counters.staleReads += 1;
        else if (outcome.status >= 300) clientError(String(outcome.status));
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, THINK_MS));
    }
  }

  const loops = Array.from({ length: clients }, (_, i) => client(i));
  return {
    acknowledged,
    lastAcknowledgedAt: () => lastAck,
    counters: () => structuredClone(counters),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}

/** Counters of `after` minus `before`: what one scenario's window saw. */
export function countersSince(before: LoadCounters, after: LoadCounters): LoadCounters {
  const clientErrors: Record<string, number> = {};
  for (const [kind, count] of Object.entries(after.clientErrors)) {
    const delta = count - (before.clientErrors[kind] ?? 0);
    if (delta > 0) clientErrors[kind] = delta;
  }
  return {
    attempts: after.attempts - before.attempts,
    acknowledged: after.acknowledged - before.acknowledged,
    reads: after.reads - before.reads,
    unavailable: after.unavailable - before.unavailable,
    clientErrors,
    staleReads: after.staleReads - before.staleReads,
  };
}
