/**
 * The drill's load: clients sending simulations with client-chosen `externalTxnId`s, retrying
 * the same id on any failure until it is answered (the API is idempotent on it).
 */

export interface DrillAccount {
  accountId: string;
  token: string;
}

export interface DrillLoad {
  /** externalTxnId → the transaction id its 2xx answered with. */
  acknowledged: Map<string, string>;
  stats(): { attempts: number; failures: number };
  stop(): Promise<void>;
}

export function startDrillLoad(baseUrl: string, accounts: DrillAccount[], clients: number): DrillLoad {
  const acknowledged = new Map<string, string>();
  let attempts = 0;
  let failures = 0;
  let running = true;

  async function client(index: number): Promise<void> {
    let n = 0;
    while (running) {
      const account = accounts[(index + n) % accounts.length];
      const externalTxnId = `drill-${index}-${n++}`;
      const amount = n % 3 === 0 ? -700 : 1000;
      for (let tries = 0; tries < 50 && running; tries++) {
        attempts += 1;
        try {
          const response = await fetch(`${baseUrl}/v1/simulations/transaction`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${account?.token}` },
            body: JSON.stringify({ accountId: account?.accountId, amount, externalTxnId, description: 'drill' }),
            signal: AbortSignal.timeout(5000),
          });
          const body = (await response.json()) as { data?: { transaction?: { id: string } } };
          if (response.ok && body.data?.transaction) acknowledged.set(externalTxnId, body.data.transaction.id);
          if (response.ok || response.status === 422) break;
        } catch {
          failures += 1;
        }
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  const loops = Array.from({ length: clients }, (_, i) => client(i));
  return {
    acknowledged,
    stats: () => ({ attempts, failures }),
    async stop() {
      running = false;
      await Promise.all(loops);
    },
  };
}
