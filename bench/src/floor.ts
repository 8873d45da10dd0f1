/**
 * The same-work floor (`../shared/bench-floor`, see its README): a hand-written node:http + pg + jose
 * server running Sandbank's booking statement shape, measured by its own `baseline.mjs` (its own
 * embedded PostgreSQL, then pgbench TPC-B there), and Sandbank driven with the same load shape:
 * one user, 1,000 accounts, alternating +100/−100 over 32 connections. Run in turns in one sitting,
 * so every figure is a ratio.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cpuMeter, cpuSeconds, instructionMeter, postgresPids } from './cpu.ts';
import { type LoadResult, load } from './load.ts';
import { pgbenchBinary } from './pgbench.ts';
import { post } from './seed.ts';
import { root, spawnApp, WRITE_FLOOR_ENTRY, waitFor200 } from './stack.ts';

/** The port `baseline.mjs` starts its embedded PostgreSQL on. */
const FLOOR_POSTGRES_PORT = 54340;

export const floorDir = path.resolve(process.env.BENCH_FLOOR_DIR ?? path.join(root, '../shared/bench-floor'));

export interface FloorRun {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  pgbenchTps: number;
  /** CPU µs per request of the floor's server process (its start-up included: a few ms). */
  serverCpuMicrosPerRequest: number;
  /** Thousands of instructions per request of that process (perf), when available. */
  serverKiloInstructionsPerRequest: number | null;
  /** CPU µs per request of the floor's PostgreSQL (its server and backends). */
  postgresCpuMicrosPerRequest: number;
}

/** The pid of `baseline.mjs`'s child running raw-server.mjs, if it is running. */
function rawServerPid(parent: number | undefined): number | undefined {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cmdline = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8');
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (cmdline.includes('raw-server.mjs') && ppid === parent) return Number(entry);
    } catch {
      // gone meanwhile
    }
  }
  return undefined;
}

/** Null (with the reason printed) when the floor's folder is missing or not installed. */
export function floorAvailable(): boolean {
  const ready = fs.existsSync(path.join(floorDir, 'baseline.mjs')) && fs.existsSync(path.join(floorDir, 'node_modules'));
  if (!ready)
    console.log(
      `floor: ${floorDir} is missing or not installed (cd there && npx -y pnpm@10 install --ignore-workspace); skipped`,
    );
  return ready;
}

/** One run of the floor's `baseline.mjs` in mode `same`, with pgbench on its server afterwards. */
export async function runFloor(options: { connections: number; seconds: number }): Promise<FloorRun> {
  const child = spawn(
    process.execPath,
    [path.join(floorDir, 'baseline.mjs'), '--connections', String(options.connections), '--seconds', String(options.seconds)],
    { cwd: floorDir, env: { ...process.env, MODES: 'same', PGBENCH: pgbenchBinary() }, stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  // The server's CPU time, read until it exits (its /proc entry goes with it).
  let serverPid: number | undefined;
  let serverCpu = 0;
  let postgresMeter: ReturnType<typeof cpuMeter> | undefined;
  let postgresCpu = 0;
  let instructions = null as ReturnType<typeof instructionMeter>;
  const sampler = setInterval(() => {
    if (serverPid === undefined) {
      serverPid = rawServerPid(child.pid);
      instructions = instructionMeter(serverPid);
      if (serverPid !== undefined) postgresMeter = cpuMeter({}, { postgres: () => postgresPids(FLOOR_POSTGRES_PORT) });
    }
    const seconds = cpuSeconds(serverPid);
    if (seconds > 0) serverCpu = seconds;
    // While the server runs (pgbench comes after it, on the same PostgreSQL).
    if (postgresMeter && seconds > 0 && cpuSeconds(serverPid) > 0) postgresCpu = postgresMeter.stop().postgres ?? 0;
  }, 100);
  const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
  clearInterval(sampler);
  const counted = (await instructions?.stop()) ?? null;
  const json = output.slice(output.indexOf('{'));
  if (code !== 0 || !json) throw new Error(`floor baseline.mjs exited ${code}:\n${output}`);
  const result = JSON.parse(json) as { raw: { same: { rps: number; p50: number; p99: number } }; pgbenchTps: number };
  return {
    requestsPerSecond: Math.round(result.raw.same.rps),
    p50: result.raw.same.p50,
    p99: result.raw.same.p99,
    pgbenchTps: Math.round(result.pgbenchTps),
    serverCpuMicrosPerRequest: Math.round((serverCpu * 1e6) / (result.raw.same.rps * options.seconds)),
    postgresCpuMicrosPerRequest: Math.round((postgresCpu * 1e6) / (result.raw.same.rps * options.seconds)),
    serverKiloInstructionsPerRequest:
      counted === null ? null : Math.round(counted / 1000 / (result.raw.same.rps * options.seconds)),
  };
}

export interface FloorShapedTarget {
  token: string;
  accountIds: string[];
}

/** The floor's set-up against Sandbank: one user, `accounts` accounts, each with a large opening balance. */
export async function seedFloorShape(baseUrl: string, accounts = 1000): Promise<FloorShapedTarget> {
  const auth = await post<{ accessToken: string }>(baseUrl, '/v1/auth/register', {
    email: `floor.${Date.now()}@example.com`,
    password: 'bench-password-1',
  });
  const accountIds: string[] = [];
  for (let i = 0; i < accounts; i++) {
    const account = await post<{ id: string }>(baseUrl, '/v1/accounts', { name: `floor ${i}` }, auth.accessToken);
    await post(baseUrl, '/v1/simulations/transaction', { accountId: account.id, amount: 1_000_000_000 }, auth.accessToken);
    accountIds.push(account.id);
  }
  return { token: auth.accessToken, accountIds };
}

export interface SandbankRun extends LoadResult {
  /** CPU microseconds per answered request, by process (and the whole machine). */
  cpuMicrosPerRequest: Record<string, number>;
  /** Thousands of instructions per answered request of `options.countInstructionsOf` (perf), if asked and available. */
  kiloInstructionsPerRequest: number | null;
}

/**
 * What each booking of the load is: `plain`, an amount in the account's currency (the floor's own
 * work), or `converted`, a card payment in EUR on the PLN account (`originalAmount` +
 * `originalCurrency`), converted at the world's rate for the day plus the card margin.
 */
export type BookingKind = 'plain' | 'converted';

const bookingBody = (kind: BookingKind, accountId: string | undefined, n: number) =>
  JSON.stringify(
    kind === 'plain'
      ? { accountId, amount: (n % 2 ? 1 : -1) * 100, description: 'bench' }
      : { accountId, originalAmount: (n % 2 ? 1 : -1) * 25, originalCurrency: 'EUR', description: 'bench' },
  );

/** The floor's load against Sandbank's `POST /v1/simulations/transaction`, with CPU per request of `pids`. */
export async function floorShapedLoad(
  baseUrl: string,
  target: FloorShapedTarget,
  options: {
    connections: number;
    seconds: number;
    rate?: number;
    pids?: Record<string, number | undefined>;
    /** Process groups to meter too (e.g. PostgreSQL's backends). */
    groups?: Record<string, () => number[]>;
    countInstructionsOf?: number | undefined;
    bookings?: BookingKind;
  },
): Promise<SandbankRun> {
  let n = 0;
  const instructions = options.countInstructionsOf ? instructionMeter(options.countInstructionsOf) : null;
  await instructions?.started;
  const meter = cpuMeter(options.pids ?? {}, options.groups);
  const result = await load({
    url: `${baseUrl}/v1/simulations/transaction`,
    method: 'POST',
    connections: options.connections,
    durationSeconds: options.seconds,
    ...(options.rate ? { rate: options.rate } : {}),
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
    request: () => {
      n += 1;
      const accountId = target.accountIds[n % target.accountIds.length];
      return { body: bookingBody(options.bookings ?? 'plain', accountId, n) };
    },
  });
  const used = meter.stop();
  const counted = (await instructions?.stop()) ?? null;
  const cpuMicrosPerRequest = Object.fromEntries(
    Object.entries(used).map(([name, seconds]) => [name, Math.round((seconds * 1e6) / Math.max(1, result.total))]),
  );
  const kiloInstructionsPerRequest = counted === null ? null : Math.round(counted / 1000 / Math.max(1, result.total));
  return { ...result, cpuMicrosPerRequest, kiloInstructionsPerRequest };
}

export interface FloorComparison {
  /** `floor` is null when ../shared/bench-floor is not installed: Sandbank's turns are still run. */
  /** Each turn's runs; `converted` when the turns book converted card payments too. */
  turns: { floor: FloorRun | null; sandbank: SandbankRun; converted?: SandbankRun | undefined }[];
  /** Medians over the turns (the floor's and the ratios null without the floor). */
  floorRequestsPerSecond: number | null;
  sandbankRequestsPerSecond: number;
  ratio: number | null;
  floorP99: number | null;
  sandbankP99: number;
  p99Ratio: number | null;
  /** pgbench TPC-B on the floor's server, same clients (baseline.mjs). */
  floorPgbenchTps: number | null;
  /** The same turns with converted bookings (card payments in EUR), when asked: beside the same floor runs. */
  converted: {
    sandbankRequestsPerSecond: number;
    /** ÷ the shared floor, which converts nothing. */
    ratio: number | null;
    sandbankP99: number;
    p99Ratio: number | null;
    /** Median of the turns' converted ÷ plain Sandbank bookings. */
    overPlain: number;
    /** The converting floor (write-floor.ts: the booking statement reading a rate and converting), when asked. */
    convertingFloorRequestsPerSecond: number | null;
    /** Median of the turns' Sandbank converted ÷ converting floor. */
    overConvertingFloor: number | null;
    convertingFloorP99: number | null;
    /** The converting floor's server with plain bookings (its calibration), and converted ÷ plain there. */
    writeFloorPlainRequestsPerSecond: number | null;
    convertingFloorOverItsPlain: number | null;
  } | null;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/**
 * The floor and Sandbank in turns (floor, Sandbank, floor, Sandbank…) after a warm-up of Sandbank;
 * `pids` and `groups` are Sandbank's processes to meter. Null when the floor is not installed.
 */
export async function compareWithFloor(
  baseUrl: string,
  target: FloorShapedTarget,
  options: {
    connections: number;
    seconds: number;
    turns: number;
    pids?: Record<string, number | undefined>;
    groups?: Record<string, () => number[]>;
    /** Also measure converted bookings in each turn, right after the plain ones. */
    converted?: boolean;
    /**
     * With `converted`: also run the converting floor (write-floor.ts on Sandbank's database, the same accounts and
     * token) with the converted load in each turn, right after Sandbank's converted run.
     */
    convertingFloor?: { databaseUrl: string; port: number };
  },
): Promise<FloorComparison> {
  const withFloor = floorAvailable();
  const convertingFloor =
    options.converted && options.convertingFloor
      ? spawnApp(WRITE_FLOOR_ENTRY, {
          DATABASE_URL: options.convertingFloor.databaseUrl,
          PORT: String(options.convertingFloor.port),
          HOST: '127.0.0.1',
        })
      : undefined;
  try {
    return await compareInTurns(baseUrl, target, options, withFloor, convertingFloor);
  } finally {
    await convertingFloor?.stop();
  }
}

async function compareInTurns(
  baseUrl: string,
  target: FloorShapedTarget,
  options: Parameters<typeof compareWithFloor>[2],
  withFloor: boolean,
  convertingFloor: ReturnType<typeof spawnApp> | undefined,
): Promise<FloorComparison> {
  const convertingUrl = options.convertingFloor && `http://127.0.0.1:${options.convertingFloor.port}`;
  if (convertingFloor && convertingUrl) {
    await waitFor200(`${convertingUrl}/readyz`, performance.now());
    await floorShapedLoad(convertingUrl, target, { connections: options.connections, seconds: 4, bookings: 'converted' });
  }
  const convertingRuns: SandbankRun[] = [];
  const writeFloorPlainRuns: SandbankRun[] = [];
  await floorShapedLoad(baseUrl, target, { connections: options.connections, seconds: 6 }); // warm-up
  const turns: FloorComparison['turns'] = [];
  const convertedRuns: SandbankRun[] = [];
  const checked = (run: SandbankRun) => {
    if (run.non2xx + run.errors > 0) throw new Error(`floor-shaped load: ${run.non2xx} non-2xx, ${run.errors} errors`);
    return run;
  };
  for (let turn = 1; turn <= options.turns; turn++) {
    const floor = withFloor ? await runFloor({ connections: options.connections, seconds: options.seconds }) : null;
    const sandbank = checked(await floorShapedLoad(baseUrl, target, options));
    const converted = options.converted
      ? checked(await floorShapedLoad(baseUrl, target, { ...options, bookings: 'converted' }))
      : undefined;
    turns.push({ floor, sandbank, converted });
    if (converted) convertedRuns.push(converted);
    const converting =
      converted && convertingFloor && convertingUrl
        ? checked(
            await floorShapedLoad(convertingUrl, target, {
              connections: options.connections,
              seconds: options.seconds,
              pids: { floor: convertingFloor.child.pid },
              ...(options.groups ? { groups: options.groups } : {}),
              bookings: 'converted',
            }),
          )
        : undefined;
    if (converting) convertingRuns.push(converting);
    // The calibration: the same server's plain booking (what the converting floor adds to it, beside what Sandbank adds).
    const writeFloorPlain =
      converting && convertingFloor && convertingUrl
        ? checked(await floorShapedLoad(convertingUrl, target, { connections: options.connections, seconds: options.seconds }))
        : undefined;
    if (writeFloorPlain) writeFloorPlainRuns.push(writeFloorPlain);
    console.log(
      `floor turn ${turn}: floor ${floor?.requestsPerSecond ?? '—'} req/s p99 ${floor?.p99 ?? '—'} ms; Sandbank ${sandbank.requestsPerSecond} req/s p99 ${sandbank.p99} ms` +
        (converted ? `; converted ${converted.requestsPerSecond} req/s p99 ${converted.p99} ms` : '') +
        (converting ? `; converting floor ${converting.requestsPerSecond} req/s p99 ${converting.p99} ms` : '') +
        (writeFloorPlain ? `; its plain booking ${writeFloorPlain.requestsPerSecond} req/s p99 ${writeFloorPlain.p99} ms` : ''),
    );
  }
  const floors = turns.flatMap((t) => (t.floor ? [t.floor] : []));
  const floorRequestsPerSecond = withFloor ? median(floors.map((f) => f.requestsPerSecond)) : null;
  const sandbankRequestsPerSecond = median(turns.map((t) => t.sandbank.requestsPerSecond));
  const floorP99 = withFloor ? median(floors.map((f) => f.p99)) : null;
  const sandbankP99 = median(turns.map((t) => t.sandbank.p99));
  const convertedRps = median(convertedRuns.map((run) => run.requestsPerSecond));
  const convertedP99 = median(convertedRuns.map((run) => run.p99));
  const ratioOf = (a: number, b: number) => Number((a / Math.max(1, b)).toFixed(2));
  const overPlain = median(
    convertedRuns.map((run, i) => ratioOf(run.requestsPerSecond, turns[i]?.sandbank.requestsPerSecond ?? 0)),
  );
  const overConverting =
    convertingRuns.length === 0
      ? null
      : median(convertingRuns.map((run, i) => ratioOf(convertedRuns[i]?.requestsPerSecond ?? 0, run.requestsPerSecond)));
  return {
    turns,
    floorRequestsPerSecond,
    sandbankRequestsPerSecond,
    ratio: floorRequestsPerSecond ? Number((sandbankRequestsPerSecond / floorRequestsPerSecond).toFixed(2)) : null,
    floorP99,
    sandbankP99,
    p99Ratio: floorP99 ? Number((sandbankP99 / floorP99).toFixed(2)) : null,
    floorPgbenchTps: withFloor ? median(floors.map((f) => f.pgbenchTps)) : null,
    converted:
      convertedRuns.length === 0
        ? null
        : {
            sandbankRequestsPerSecond: convertedRps,
            ratio: floorRequestsPerSecond ? Number((convertedRps / floorRequestsPerSecond).toFixed(2)) : null,
            sandbankP99: convertedP99,
            p99Ratio: floorP99 ? Number((convertedP99 / floorP99).toFixed(2)) : null,
            overPlain,
            convertingFloorRequestsPerSecond:
              convertingRuns.length === 0 ? null : median(convertingRuns.map((run) => run.requestsPerSecond)),
            overConvertingFloor: overConverting,
            convertingFloorP99: convertingRuns.length === 0 ? null : median(convertingRuns.map((run) => run.p99)),
            writeFloorPlainRequestsPerSecond:
              writeFloorPlainRuns.length === 0 ? null : median(writeFloorPlainRuns.map((run) => run.requestsPerSecond)),
            convertingFloorOverItsPlain:
              writeFloorPlainRuns.length === 0
                ? null
                : median(
                    writeFloorPlainRuns.map((run, i) =>
                      ratioOf(convertingRuns[i]?.requestsPerSecond ?? 0, run.requestsPerSecond),
                    ),
                  ),
          },
  };
}
