/**
 * Scale-out (`pnpm bench --scale`, or `measureScaleOut` from the full run): the simulation load
 * against 1 API + 1 worker and against 2 APIs + 2 workers (and 2 + 2 with the PostgreSQL-backed
 * rate limits on), all on one PostgreSQL. Every set-up is started, seeded and warmed up first and
 * stays up; then the measured segments alternate between them `rounds` times, so each 2 + 2
 * figure has a 1 + 1 figure taken a few seconds before it (this VM's load drifts by ±30 % over
 * minutes). Then the limit checks, with two APIs. See bench/README.md.
 *
 * The clients are split across the API ports by autocannon itself (connection i goes to port
 * i % n, one latency histogram for all): no proxy in front, which on 2 cores would take CPU from
 * the processes being measured and add its own hop to every latency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { listeningPid } from './proc.ts';
import { checkRateLimits } from './scale-checks.ts';
import { openStand, type Segment, type Setup, type Stand } from './scale-stand.ts';
import { root, type Server, startPostgres } from './stack.ts';

export interface ScaleOptions {
  server: Server;
  /** The set-ups' APIs listen on `port`, `port + 1`, … `port + 4`. */
  port: number;
  clients: number;
  /** Seconds of each measured segment. */
  seconds: number;
  /** How many times each set-up is measured, in turn. */
  rounds: number;
}

const SETUPS: Setup[] = [
  { name: '1+1', key: 'one', size: 1, env: {} },
  { name: '2+2', key: 'two', size: 2, env: {} },
  // What sharing the limits costs: every request also upserts its IP's row in rate_limits (one row
  // here, since every client is 127.0.0.1); the limit itself is out of reach.
  {
    name: '2+2 limits on',
    key: 'two_limited',
    size: 2,
    env: { RATE_LIMIT_ENABLED: 'true', RATE_LIMIT_STORE: 'postgres', RATE_LIMIT_IP: '1000000000/60' },
  },
];

type Run = Segment & { round: number; processes: string };

export async function measureScaleOut({ server, port, clients, seconds, rounds }: ScaleOptions) {
  const postmaster = listeningPid(Number(new URL(server.adminUrl).port || 5432));
  const stands: Stand[] = [];
  const runs: Run[] = [];
  let webhooks: Record<string, Awaited<ReturnType<Stand['checkDeliveries']>>> = {};
  let peakRssMiB: Record<string, ReturnType<Stand['peakRssMiB']>> = {};
  try {
    let nextPort = port;
    for (const setup of SETUPS) {
      stands.push(await openStand(server, setup, { port: nextPort, clients, postmaster }));
      nextPort += setup.size;
    }
    for (let round = 1; round <= rounds; round++) {
      for (const stand of stands) {
        const run = { round, processes: stand.setup.name, ...(await stand.segment(seconds)) };
        console.log(
          `scale round ${round}, ${run.processes}: ${run.simulations.requestsPerSecond} simulations/s, p99 ${run.simulations.p99} ms, ${run.deliveriesPerSecond} deliveries/s`,
        );
        runs.push(run);
      }
    }
    webhooks = Object.fromEntries(await Promise.all(stands.map(async (s) => [s.setup.name, await s.checkDeliveries()])));
    peakRssMiB = Object.fromEntries(stands.map((s) => [s.setup.name, s.peakRssMiB()]));
  } finally {
    await Promise.all(stands.map((stand) => stand.close()));
  }
  const limits = await checkRateLimits(server, port, 'postgres');
  // The control: with each API counting alone more must pass, or the check proves nothing.
  const control = await checkRateLimits(server, port, 'memory');
  const twoWorkerRuns = runs.filter((run) => run.processes !== '1+1');
  const twoWorkerChecks = Object.entries(webhooks).filter(([name]) => name !== '1+1');
  const sum = (pick: (check: (typeof twoWorkerChecks)[number][1]) => number) =>
    twoWorkerChecks.reduce((total, [, check]) => total + pick(check), 0);
  return {
    clients,
    seconds,
    rounds,
    runs,
    ratios: roundRatios(runs, rounds),
    peakRssMiB,
    checks: {
      ipLimitAcrossApis: limits.ip,
      apiKeyLimitAcrossApis: limits.apiKey,
      controlMemoryStore: {
        ip: control.ip,
        apiKey: control.apiKey,
        detectsPerProcessBuckets: !control.ip.pass && !control.apiKey.pass,
      },
      webhooks,
      webhooksTwoWorkers: {
        deliveries: sum((check) => check.deliveries),
        duplicates: sum((check) => check.duplicates),
        succeededTwice: sum((check) => check.succeededTwice),
        undelivered: sum((check) => check.undelivered),
        // Both workers delivered in every segment, or "no duplicates" would prove nothing.
        bothWorkersDelivered: twoWorkerRuns.every(
          (run) => (run.deliveriesByWorker[0] ?? 0) > 0 && (run.deliveriesByWorker[1] ?? 0) > 0,
        ),
        pass:
          twoWorkerChecks.every(([, check]) => check.pass) &&
          twoWorkerRuns.every((run) => (run.deliveriesByWorker[0] ?? 0) > 0 && (run.deliveriesByWorker[1] ?? 0) > 0),
      },
    },
  };
}

type ScaleResult = Awaited<ReturnType<typeof measureScaleOut>>;

/** Per round: 2+2 ÷ 1+1, and 2+2 with the shared limits ÷ 2+2 without; then the medians. */
function roundRatios(runs: Run[], rounds: number) {
  const ratio = (a: number, b: number) => Number((a / b).toFixed(2));
  const perRound = Array.from({ length: rounds }, (_, i) => {
    const [one, two, limited] = runs.slice(SETUPS.length * i) as [Run, Run, Run];
    const cpu = (run: Run) => run.cpuMsPer1000.apis + run.cpuMsPer1000.workers + (run.cpuMsPer1000.postgres ?? 0);
    return {
      round: i + 1,
      simulationsPerSecond: ratio(two.simulations.requestsPerSecond, one.simulations.requestsPerSecond),
      p99: ratio(two.simulations.p99, one.simulations.p99),
      deliveriesPerSecond: ratio(two.deliveriesPerSecond, one.deliveriesPerSecond),
      cpuPerSimulation: ratio(cpu(two), cpu(one)),
      limitsOnSimulationsPerSecond: ratio(limited.simulations.requestsPerSecond, two.simulations.requestsPerSecond),
      limitsOnP99: ratio(limited.simulations.p99, two.simulations.p99),
    };
  });
  const median = (pick: (r: (typeof perRound)[number]) => number) => {
    const sorted = perRound.map(pick).sort((a, b) => a - b);
    const mid = Math.floor(sorted.length / 2);
    return sorted.length % 2 ? (sorted[mid] ?? 0) : Number((((sorted[mid - 1] ?? 0) + (sorted[mid] ?? 0)) / 2).toFixed(2));
  };
  return {
    perRound,
    median: {
      simulationsPerSecond: median((r) => r.simulationsPerSecond),
      p99: median((r) => r.p99),
      deliveriesPerSecond: median((r) => r.deliveriesPerSecond),
      cpuPerSimulation: median((r) => r.cpuPerSimulation),
      limitsOnSimulationsPerSecond: median((r) => r.limitsOnSimulationsPerSecond),
      limitsOnP99: median((r) => r.limitsOnP99),
    },
  };
}

/** `pnpm bench --scale`: only the scale-out part, written to bench/results/<date>-scale.json. */
export async function runScaleBench(): Promise<void> {
  const server = await startPostgres();
  try {
    const started = new Date();
    const scale = await measureScaleOut({
      server,
      port: Number(process.env.BENCH_PORT ?? 3900),
      clients: Number(process.env.BENCH_CLIENTS ?? 32),
      seconds: Number(process.env.BENCH_SCALE_SECONDS ?? 10),
      rounds: Number(process.env.BENCH_SCALE_ROUNDS ?? 4),
    });
    const results = {
      date: started.toISOString(),
      machine: { cpus: (await import('node:os')).cpus().length, node: process.version },
      scale,
    };
    printScale(scale);
    const file = path.join(root, 'bench/results', `${results.date.slice(0, 10)}-scale.json`);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
    console.log(`written ${path.relative(root, file)}`);
  } finally {
    await server.stop();
  }
}

export function printScale(scale: ScaleResult): void {
  const row = (run: Run) =>
    `| ${run.round} | ${run.processes} | ${run.simulations.requestsPerSecond} | ${run.simulations.p99} | ${run.deliveriesPerSecond} | ${run.simulationsByApi.join(' / ')} | ${run.deliveriesByWorker.join(' / ')} | ${run.cpuMsPer1000.apis} / ${run.cpuMsPer1000.workers} / ${run.cpuMsPer1000.postgres ?? '–'} / ${run.cpuMsPer1000.loadAndReceiver} |`;
  const limit = (name: string, check: { passed: number; sent: number; limit: number; pass: boolean }) =>
    `${name}: ${check.passed} of ${check.sent} passed (limit ${check.limit}) → ${check.pass ? 'PASS' : 'FAIL'}`;
  const { checks, ratios } = scale;
  const m = ratios.median;
  const hooks = checks.webhooksTwoWorkers;
  console.log(
    [
      `\nscale-out, ${scale.clients} clients, ${scale.seconds} s per segment, ${scale.rounds} rounds\n`,
      '| round | API+worker | simulations/s | p99 ms | deliveries/s | 201s by API | deliveries by worker (+ unknown) | CPU ms per 1,000: APIs / workers / PostgreSQL / bench |',
      '|---|---|---|---|---|---|---|---|',
      ...scale.runs.map(row),
      '',
      ...ratios.perRound.map(
        (r) =>
          `round ${r.round}: 2+2 ÷ 1+1 simulations/s ${r.simulationsPerSecond}, p99 ${r.p99}, deliveries/s ${r.deliveriesPerSecond}, CPU per simulation ${r.cpuPerSimulation}; limits on ÷ off: simulations/s ${r.limitsOnSimulationsPerSecond}, p99 ${r.limitsOnP99}`,
      ),
      `median: 2+2 ÷ 1+1 simulations/s ${m.simulationsPerSecond}, p99 ${m.p99}, deliveries/s ${m.deliveriesPerSecond}, CPU per simulation ${m.cpuPerSimulation}; limits on ÷ off: simulations/s ${m.limitsOnSimulationsPerSecond}, p99 ${m.limitsOnP99}`,
      limit('per-IP limit across 2 APIs', checks.ipLimitAcrossApis),
      limit('per-key limit across 2 APIs', checks.apiKeyLimitAcrossApis),
      `control, memory store: IP ${checks.controlMemoryStore.ip.passed} and key ${checks.controlMemoryStore.apiKey.passed} passed → the check ${checks.controlMemoryStore.detectsPerProcessBuckets ? 'detects' : 'DOES NOT detect'} per-process buckets`,
      `webhooks with 2 workers: ${hooks.deliveries} deliveries, ${hooks.duplicates} duplicates, ${hooks.succeededTwice} succeeded twice, ${hooks.undelivered} undelivered, both workers delivered: ${hooks.bothWorkersDelivered ? 'yes' : 'NO'} → ${hooks.pass ? 'PASS' : 'FAIL'}`,
    ].join('\n'),
  );
}
