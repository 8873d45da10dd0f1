/**
 * `pnpm --filter @sandbank/bench memory`: peak RSS of the API and the worker under the
 * simulation load, and where it goes. Per run: a fresh database, the API and one worker as
 * production processes (as `pnpm start` runs them: the bundles, SERVER_NODE_FLAGS, SERVER_ENV),
 * 8 × 8 seeded accounts with a webhook each, 32 connections of `POST /v1/simulations/transaction`
 * for MEMORY_SECONDS (15), then until the worker has delivered every event. Reported per process:
 * VmHWM (peak RSS, what `pnpm bench` reports) at the end and right after start-up, its split from
 * /proc/<pid>/smaps (anonymous memory, the malloc heap `brk`, the node binary's resident pages,
 * shared libraries), the peak of each V8 heap space and of `process.memoryUsage()` (sampled inside
 * the process by memory-probe.js, loaded with `--import`), and CPU ms per request. With
 * MEMORY_SNAPSHOT=1 each process also writes a heap snapshot after the load.
 *
 * MEMORY_VARIANTS compares set-ups in one sitting, alternating run by run (MEMORY_ROUNDS rounds):
 * a JSON object of name → { api?: { flags?, env?, entry? }, worker?: { … } }; `flags` replaces the
 * Node flags, `env` is added (an empty GLIBC_TUNABLES turns the allocator settings off), `entry`
 * runs another file (e.g. `apps/api/src/main.ts`, the sources). Example:
 *   MEMORY_VARIANTS='{"now":{},"sources":{"api":{"entry":"apps/api/src/main.ts"},"worker":{"entry":"apps/worker/src/main.ts"}}}'
 * Uses BENCH_PG_PORT (default 54371 here) and MEMORY_PORT (3960).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, simulationStream } from './load.ts';
import { startReceiver } from './receiver.ts';
import { seedUsers } from './seed.ts';
import { APP_ENTRY, freshDatabase, type Proc, spawnApp, startPostgres, waitFor200 } from './stack.ts';

interface Side {
  flags?: string[];
  env?: Record<string, string>;
  entry?: string;
}
type Variants = Record<string, { api?: Side; worker?: Side }>;

process.env.BENCH_PG_PORT ??= '54371';
const PORT = Number(process.env.MEMORY_PORT ?? 3960);
const SECONDS = Number(process.env.MEMORY_SECONDS ?? 15);
const ROUNDS = Number(process.env.MEMORY_ROUNDS ?? 1);
const variants: Variants = JSON.parse(process.env.MEMORY_VARIANTS ?? '{"current":{}}');
const baseUrl = `http://127.0.0.1:${PORT}`;
const probe = path.join(path.dirname(new URL(import.meta.url).pathname), 'memory-probe.js');
const probeDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-memory-'));
const MiB = 1024 * 1024;
const mib = (bytes: number | undefined) => Math.round((bytes ?? 0) / MiB);

function status(pid: number, field: string): number {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Math.round(Number(new RegExp(`${field}:\\s+(\\d+)`).exec(text)?.[1] ?? 0) / 1024);
}

/** Resident MiB of the process's mappings, grouped: anonymous, [heap] (brk), the node binary, .so files, other. */
function smaps(pid: number): Record<string, number> {
  const groups: Record<string, number> = {};
  let group = 'anon';
  for (const line of fs.readFileSync(`/proc/${pid}/smaps`, 'utf8').split('\n')) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1] ?? '';
      group =
        name === ''
          ? 'anon'
          : name === '[heap]'
            ? 'brk'
            : name.startsWith('[')
              ? 'other'
              : name.endsWith('/node')
                ? 'nodeBinary'
                : /\.so(\.|$)/.test(name)
                  ? 'sharedLibs'
                  : 'otherFiles';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) groups[group] = (groups[group] ?? 0) + Number(rss[1]) / 1024;
  }
  return Object.fromEntries(Object.entries(groups).map(([key, value]) => [key, Math.round(value)]));
}

/** User + system CPU seconds of the process so far. */
function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

async function readProbe(proc: Proc, file: string): Promise<{ peak: Record<string, number>; now: Record<string, number> }> {
  fs.rmSync(file, { force: true });
  proc.child.kill('SIGUSR2');
  for (let i = 0; i < 200 && !fs.existsSync(file); i++) await new Promise((resolve) => setTimeout(resolve, 25));
  await new Promise((resolve) => setTimeout(resolve, 50));
  return JSON.parse(fs.readFileSync(file, 'utf8'));
}

function start(name: 'api' | 'worker', side: Side, env: Record<string, string>, run: string): { proc: Proc; probeFile: string } {
  const probeFile = path.join(probeDir, `${run}-${name}.json`);
  const proc = spawnApp(
    side.entry ?? APP_ENTRY[name],
    {
      ...env,
      ...side.env,
      NODE_OPTIONS: `--import=${probe} ${side.env?.NODE_OPTIONS ?? ''}`,
      MEMORY_PROBE_OUT: probeFile,
      ...(process.env.MEMORY_SNAPSHOT ? { MEMORY_PROBE_SNAPSHOT: '1' } : {}),
    },
    side.flags,
  );
  return { proc, probeFile };
}

const server = await startPostgres();
const results: Record<string, unknown>[] = [];
const names = Object.keys(variants);
const running = new Set<Proc>();
try {
  for (let round = 0; round < ROUNDS; round++) {
    // Alternate the order so neither variant always runs on a warmer machine.
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      const variant = variants[name] ?? {};
      const run = `${name}-${round}`;
      const databaseUrl = await freshDatabase(server, 'sandbank_memory');
      const receiver = await startReceiver();
      const env = { DATABASE_URL: databaseUrl, PORT: String(PORT), HOST: '127.0.0.1' };
      const api = start('api', variant.api ?? {}, env, run);
      const worker = start('worker', variant.worker ?? {}, env, run);
      running.add(api.proc).add(worker.proc);
      const apiPid = api.proc.child.pid ?? 0;
      const workerPid = worker.proc.child.pid ?? 0;
      await waitFor200(`${baseUrl}/readyz`, performance.now());
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const idle = { api: status(apiPid, 'VmRSS'), worker: status(workerPid, 'VmRSS') };
      const startPeak = { api: status(apiPid, 'VmHWM'), worker: status(workerPid, 'VmHWM') };

      const users = await seedUsers(baseUrl, { users: 8, accountsPerUser: 8, webhookUrl: receiver.url });
      const accounts = users.flatMap((user) => user.accountIds.map((accountId) => ({ accountId, token: user.token })));
      const deliveredBefore = receiver.received();
      const cpuBefore = { api: cpuSeconds(apiPid), worker: cpuSeconds(workerPid) };
      const simulations = await load({
        url: `${baseUrl}/v1/simulations/transaction`,
        method: 'POST',
        connections: 32,
        durationSeconds: SECONDS,
        headers: { 'content-type': 'application/json' },
        request: simulationStream(accounts),
      });
      const apiCpu = cpuSeconds(apiPid) - cpuBefore.api;
      const expected = simulations.total - simulations.non2xx - simulations.errors;
      const deadline = performance.now() + 120_000;
      while (receiver.received() - deliveredBefore < expected && performance.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      const workerCpu = cpuSeconds(workerPid) - cpuBefore.worker;
      const ok = Math.max(1, expected);
      const side = async (proc: Proc, pid: number, probeFile: string, idleRss: number, startPeakRss: number, cpu: number) => {
        const peakRss = status(pid, 'VmHWM');
        const rss = status(pid, 'VmRSS');
        const maps = smaps(pid);
        const { peak, now } = await readProbe(proc, probeFile);
        return {
          peakRss,
          startPeakRss,
          idleRss,
          rss,
          smaps: maps,
          cpuMsPerRequest: Number(((cpu * 1000) / ok).toFixed(3)),
          peakHeap: Object.fromEntries(Object.entries(peak).map(([key, value]) => [key, mib(value)])),
          now: Object.fromEntries(
            Object.entries(now).map(([key, value]) => [key, key === 'nativeContexts' ? value : mib(value)]),
          ),
        };
      };
      const result = {
        variant: name,
        round,
        requestsPerSecond: simulations.requestsPerSecond,
        p99: simulations.p99,
        failed: simulations.non2xx + simulations.errors,
        delivered: receiver.received() - deliveredBefore,
        api: await side(api.proc, apiPid, api.probeFile, idle.api, startPeak.api, apiCpu),
        worker: await side(worker.proc, workerPid, worker.probeFile, idle.worker, startPeak.worker, workerCpu),
      };
      results.push(result);
      const line = (side: typeof result.api) =>
        `peak ${side.peakRss} MiB (after start-up ${side.startPeakRss}; ${Object.entries(side.smaps)
          .filter(([, value]) => value > 0)
          .map(([key, value]) => `${key} ${value}`)
          .join(', ')}; V8 heap peak ${side.peakHeap.heapTotal})`;
      console.log(
        `${name} #${round}: ${result.requestsPerSecond} req/s, p99 ${result.p99} ms | API ${line(result.api)} | worker ${line(result.worker)}`,
      );
      await Promise.all([api.proc.stop(), worker.proc.stop(), receiver.close()]);
      running.clear();
    }
  }
} finally {
  await Promise.all([...running].map((proc) => proc.stop()));
  await server.stop();
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
console.log(
  '\n| variant | req/s | p99 ms | API peak RSS MiB | API after start-up | worker peak RSS MiB | worker after start-up | API CPU ms/req | worker CPU ms/req |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
interface Run {
  requestsPerSecond: number;
  p99: number;
  api: { peakRss: number; startPeakRss: number; cpuMsPerRequest: number };
  worker: { peakRss: number; startPeakRss: number; cpuMsPerRequest: number };
}
for (const name of names) {
  const mine = results.filter((result) => result.variant === name) as unknown as Run[];
  const column = (pick: (run: Run) => number) => `${median(mine.map(pick))} (${mine.map(pick).join(', ')})`;
  const columns = [
    (r: Run) => r.requestsPerSecond,
    (r: Run) => r.p99,
    (r: Run) => r.api.peakRss,
    (r: Run) => r.api.startPeakRss,
    (r: Run) => r.worker.peakRss,
    (r: Run) => r.worker.startPeakRss,
    (r: Run) => r.api.cpuMsPerRequest,
    (r: Run) => r.worker.cpuMsPerRequest,
  ];
  console.log(`| ${name} | ${columns.map(column).join(' | ')} |`);
}
const file = path.join(probeDir, 'results.json');
fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
console.log(`\nevery run: ${file}`);
