/**
 * One set-up of the scale bench, kept running for the whole sitting: its own database on the
 * shared PostgreSQL, N APIs and N workers, a webhook receiver, 8 users × 8 accounts with a
 * webhook each, warmed up. `segment()` drives one measured load through it and waits until the
 * workers have delivered it, so the next set-up's segment starts on a quiet machine.
 */
import { startFleet } from './fleet.ts';
import { type LoadResult, load, simulationStream } from './load.ts';
import { postgresCpuMs, socketOwner } from './proc.ts';
import { startReceiver } from './receiver.ts';
import { checkDeliveries, type DeliveryCheck, waitForSettledDeliveries } from './scale-checks.ts';
import { seedUsers } from './seed.ts';
import { freshDatabase, type Server } from './stack.ts';

export interface Setup {
  name: string;
  /** Names its database: sandbank_scale_<key>. */
  key: string;
  size: number;
  env: Record<string, string>;
}

export interface Segment {
  simulations: LoadResult;
  deliveriesPerSecond: number;
  /** Simulations answered 201 by each API during the load (its `sandbank_simulations_total`). */
  simulationsByApi: number[];
  /** Requests at the receiver by the worker that sent them (found through /proc), then by no known sender. */
  deliveriesByWorker: number[];
  /**
   * CPU ms per 1,000 simulations from load start to drained: the set-up's APIs, its workers,
   * PostgreSQL (null when it is no local process we can read) and the bench process (autocannon
   * and the receivers).
   */
  cpuMsPer1000: { apis: number; workers: number; postgres: number | null; loadAndReceiver: number };
}

export interface Stand {
  setup: Setup;
  segment(seconds: number): Promise<Segment>;
  /** Every delivery of the sitting against the receiver's record. */
  checkDeliveries(): Promise<DeliveryCheck>;
  peakRssMiB(): { apis: number[]; workers: number[] };
  close(): Promise<void>;
}

const WARM_UP_SECONDS = 5;

export async function openStand(
  server: Server,
  setup: Setup,
  { port, clients, postmaster }: { port: number; clients: number; postmaster: number | null },
): Promise<Stand> {
  const databaseUrl = await freshDatabase(server, `sandbank_scale_${setup.key}`);
  const fleet = await startFleet(setup.size, { DATABASE_URL: databaseUrl, HOST: '127.0.0.1', ...setup.env }, port);
  const workerPids = fleet.workers.flatMap((worker) => (worker.child.pid ? [worker.child.pid] : []));
  const ownerOfPort = new Map<number, number | null>();
  let receiverPort = 0;
  const receiver = await startReceiver({
    onConnection: (remotePort) => ownerOfPort.set(remotePort, socketOwner(remotePort, receiverPort, workerPids)),
  });
  receiverPort = Number(new URL(receiver.url).port);
  const close = async () => {
    await Promise.all([fleet.stop(), receiver.close()]);
  };
  try {
    const users = await seedUsers(fleet.urls[0] ?? '', { users: 8, accountsPerUser: 8, webhookUrl: receiver.url });
    const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
    // The main bench's request stream: every account in turn, 3 credits to 1 debit, each one delivered.
    const simulate = (durationSeconds: number) =>
      load({
        url: fleet.urls.map((url) => `${url}/v1/simulations/transaction`),
        method: 'POST',
        connections: clients,
        durationSeconds,
        headers: { 'content-type': 'application/json' },
        request: simulationStream(accounts),
      });
    // Past the JIT's warm-up in every process before anything is measured.
    await simulate(WARM_UP_SECONDS);
    await waitForSettledDeliveries(databaseUrl);

    const segment = async (seconds: number): Promise<Segment> => {
      const simulationsBefore = await Promise.all(fleet.urls.map(simulationsAnswered));
      const deliveredBefore = receiver.received();
      const byPortBefore = new Map(receiver.requestsByPort);
      const cpuBefore = { ...fleet.cpuMs(), postgres: postmaster ? postgresCpuMs(postmaster) : 0, self: process.cpuUsage() };
      const started = performance.now();
      const simulations = await simulate(seconds);
      const expected = simulations.total - simulations.non2xx - simulations.errors;
      const deadline = performance.now() + 120_000;
      while (receiver.received() - deliveredBefore < expected && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      const delivered = receiver.received() - deliveredBefore;
      const deliveredSeconds = (receiver.lastArrival() - started) / 1000;
      const cpuAfter = { ...fleet.cpuMs(), postgres: postmaster ? postgresCpuMs(postmaster) : 0 };
      const self = process.cpuUsage(cpuBefore.self);
      await waitForSettledDeliveries(databaseUrl);
      const simulationsAfter = await Promise.all(fleet.urls.map(simulationsAnswered));
      const perThousand = (ms: number) => Math.round((ms / Math.max(1, expected)) * 1000);
      return {
        simulations,
        deliveriesPerSecond: Math.round(delivered / deliveredSeconds),
        simulationsByApi: simulationsAfter.map((after, i) => after - (simulationsBefore[i] ?? 0)),
        deliveriesByWorker: countBySender(receiver.requestsByPort, byPortBefore, ownerOfPort, workerPids),
        cpuMsPer1000: {
          apis: perThousand(cpuAfter.apis - cpuBefore.apis),
          workers: perThousand(cpuAfter.workers - cpuBefore.workers),
          postgres: postmaster ? perThousand(cpuAfter.postgres - cpuBefore.postgres) : null,
          loadAndReceiver: perThousand((self.user + self.system) / 1000),
        },
      };
    };
    return {
      setup,
      segment,
      checkDeliveries: () => checkDeliveries(databaseUrl, receiver),
      peakRssMiB: () => ({
        apis: fleet.apis.map((api) => api.peakRssMiB()),
        workers: fleet.workers.map((worker) => worker.peakRssMiB()),
      }),
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

/** Requests since `before`: one count per worker (in `pids` order), then those whose sender was not found. */
function countBySender(
  byPort: Map<number, number>,
  before: Map<number, number>,
  ownerOfPort: Map<number, number | null>,
  pids: number[],
): number[] {
  const counts = [...pids.map(() => 0), 0];
  for (const [port, total] of byPort) {
    const found = pids.indexOf(ownerOfPort.get(port) ?? -1);
    const index = found === -1 ? pids.length : found;
    counts[index] = (counts[index] ?? 0) + total - (before.get(port) ?? 0);
  }
  return counts;
}

/** The API's own count of simulations it answered 201 (Prometheus text from /metrics). */
async function simulationsAnswered(baseUrl: string): Promise<number> {
  const text = await (await fetch(`${baseUrl}/metrics`)).text();
  return Number(/^sandbank_simulations_total (\d+)/m.exec(text)?.[1] ?? Number.NaN);
}
