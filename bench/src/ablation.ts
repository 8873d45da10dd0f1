/**
 * `pnpm --filter @sandbank/bench ablation`: what each layer of the simulation path costs. Starts
 * the API once per variant of `ablation-server.ts` (one layer left out) against the same database,
 * drives the floor's load shape (one user, 1,000 accounts, ±100; one connection; no worker, so only
 * the API's own work is priced) and counts the API process's instructions with perf and its CPU
 * time from /proc. A layer's cost is
 * the full path's CPU µs per request minus the variant's. Rounds alternate the variants so the
 * machine's drift spreads over all of them; the table takes each variant's median.
 */
import fs from 'node:fs';
import path from 'node:path';
import { VARIANTS, type Variant } from './ablation-server.ts';
import { floorShapedLoad, seedFloorShape } from './floor.ts';
import { freshDatabase, root, spawnApp, startPostgres, waitFor200 } from './stack.ts';

// A fixed rate the machine sustains even when busy: every variant then serves the same requests in
// the same time, so the process's per-second background work (timers, GC) is the same in each and
// the differences are the layers' own. (As fast as possible, a busier machine batches less per
// event-loop turn and spreads the background over fewer requests: counts moved by 60 %.)
const CONNECTIONS = Number(process.env.BENCH_CLIENTS ?? 4);
const RATE = Number(process.env.BENCH_RATE ?? 250);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 2);
const PORT = Number(process.env.BENCH_PORT ?? 3900);
const baseUrl = `http://127.0.0.1:${PORT}`;
const only = process.env.ABLATION_VARIANTS?.split(',') as Variant[] | undefined;
const variants = only ?? (Object.keys(VARIANTS) as Variant[]);

const server = await startPostgres();
const databaseUrl = await freshDatabase(server, 'sandbank_ablation');
const env = {
  DATABASE_URL: databaseUrl,
  PORT: String(PORT),
  HOST: '127.0.0.1',
  RATE_LIMIT_ENABLED: 'true',
  RATE_LIMIT_IP: '100000000/60',
  LIMIT_OPEN_ACCOUNTS: '100000',
};

async function withVariant<T>(variant: Variant, run: (pid: number | undefined) => Promise<T>): Promise<T> {
  const api = spawnApp('bench/src/ablation-server.ts', { ...env, ABLATION: variant });
  try {
    await waitFor200(`${baseUrl}/healthz`, performance.now());
    const result = await run(api.child.pid);
    // A server that died (a port taken) would have let another process answer.
    if (api.child.exitCode !== null || api.child.signalCode !== null) throw new Error(`${variant}: the server exited`);
    return result;
  } finally {
    await api.stop();
  }
}

const target = await withVariant('full', () => seedFloorShape(baseUrl));
const samples = new Map<string, { kilo: number[]; cpu: number[]; rps: number[]; p99: number[] }>();
const record = (name: string, kilo: number | null, cpu: number, rps: number, p99: number) => {
  const entry = samples.get(name) ?? { kilo: [], cpu: [], rps: [], p99: [] };
  if (kilo !== null) entry.kilo.push(kilo);
  entry.cpu.push(cpu);
  entry.rps.push(rps);
  entry.p99.push(p99);
  samples.set(name, entry);
};
for (let round = 1; round <= ROUNDS; round++) {
  for (const variant of round % 2 ? variants : [...variants].reverse()) {
    const result = await withVariant(variant, async (pid) => {
      await floorShapedLoad(baseUrl, target, { connections: CONNECTIONS, seconds: 3 }); // warm-up, full speed
      return floorShapedLoad(baseUrl, target, {
        connections: CONNECTIONS,
        rate: RATE,
        seconds: SECONDS,
        pids: { api: pid },
        countInstructionsOf: pid,
      });
    });
    if (result.non2xx + result.errors > 0) throw new Error(`${variant}: ${result.non2xx} non-2xx, ${result.errors} errors`);
    record(variant, result.kiloInstructionsPerRequest, result.cpuMicrosPerRequest.api ?? 0, result.requestsPerSecond, result.p99);
    console.log(
      `round ${round} ${variant}: ${result.kiloInstructionsPerRequest} k instructions, ${result.cpuMicrosPerRequest.api} µs/request, ${result.requestsPerSecond} req/s`,
    );
  }
}
await server.stop();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
const fullKilo = median(samples.get('full')?.kilo ?? []);
const fullCpu = median(samples.get('full')?.cpu ?? []);
// µs of a layer: its share of the full path's instructions, priced at the full path's CPU time per instruction.
const microsPerKilo = fullKilo > 0 ? fullCpu / fullKilo : 0;
const rows = [...samples].map(([name, s]) => {
  const kilo = median(s.kilo);
  const layer = name === 'full' || name.startsWith('floor') ? null : fullKilo - kilo;
  return {
    variant: name,
    kiloInstructionsPerRequest: kilo,
    layerKiloInstructions: layer,
    layerMicros: layer === null ? null : Math.round(layer * microsPerKilo),
    cpuMicrosPerRequest: median(s.cpu),
    requestsPerSecond: median(s.rps),
    p99: median(s.p99),
  };
});
console.log(
  [
    '| variant | k instructions / request | layer (k instr.) | layer ≈ µs | CPU µs / request | req/s | p99 ms |',
    '|---|---|---|---|---|---|---|',
    ...rows.map(
      (r) =>
        `| ${r.variant} | ${r.kiloInstructionsPerRequest} | ${r.layerKiloInstructions ?? '—'} | ${r.layerMicros ?? '—'} | ${r.cpuMicrosPerRequest} | ${r.requestsPerSecond} | ${r.p99} |`,
    ),
  ].join('\n'),
);
const file = path.join(
  root,
  'bench/results',
  `${new Date().toISOString().slice(0, 10)}-ablation${process.env.ABLATION_LABEL ? `-${process.env.ABLATION_LABEL}` : ''}.json`,
);
fs.writeFileSync(
  file,
  `${JSON.stringify({ date: new Date().toISOString(), connections: CONNECTIONS, seconds: SECONDS, rounds: ROUNDS, rows }, null, 2)}\n`,
);
console.log(`written ${path.relative(root, file)}`);
