/**
 * Own-account transfers against their same-work floor (issue 42; bench/README.md, "Payments"):
 * `POST /v1/payments` between two accounts of one user, same currency, through the real HTTP API,
 * in turns with the write floor (write-floor.ts: the same rows, balances and events in one
 * hand-written statement) on the same database and the same accounts — Sandbank, floor, Sandbank,
 * floor… — medians of the turns, so the ratio is measured in one sitting. Each turn then runs plain
 * bookings (`POST /v1/simulations/transaction`, ±100 over the same accounts) against the write floor's
 * booking, the same way: the calibration that says how far the same server and framework reach on
 * the path issue 16 tuned, beside the transfer's figure.
 */
import { cpuMeter } from './cpu.ts';
import type { FloorShapedTarget } from './floor.ts';
import { type LoadResult, load } from './load.ts';
import { spawnApp, WRITE_FLOOR_ENTRY, waitFor200 } from './stack.ts';

type MeteredRun = LoadResult & { cpuMicrosPerRequest: Record<string, number> };

export interface TransferTurn {
  sandbank: MeteredRun;
  floor: MeteredRun;
  ratio: number;
  /** The calibration: plain bookings, Sandbank and the write floor's, and their ratio. */
  bookings: { sandbank: MeteredRun; floor: MeteredRun; ratio: number };
  /**
   * Converted bookings (card payments in EUR on the PLN accounts, issue 41) on Sandbank in the same turn:
   * ÷ the floor's plain booking (the method of floor-compare, whose floor converts nothing) and ÷
   * Sandbank's own plain bookings (what converting adds).
   */
  converted: { sandbank: MeteredRun; overFloorBooking: number; overPlain: number } | null;
}

export interface TransferComparison {
  turns: TransferTurn[];
  sandbankRequestsPerSecond: number;
  floorRequestsPerSecond: number;
  /** Median of the turns' ratios (Sandbank ÷ floor in the same turn). */
  ratio: number;
  sandbankP99: number;
  floorP99: number;
  p99Ratio: number;
  /** Median of the turns' booking ratios (the calibration). */
  bookingRatio: number;
  /** Medians of the turns' converted ratios, when measured. */
  converted: { overFloorBooking: number; overPlain: number } | null;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** 100 minor units from one account of a pair to the other, the direction alternating, so balances stay put. */
function transferStream(target: FloorShapedTarget) {
  let n = 0;
  const pairs = Math.floor(target.accountIds.length / 2);
  return () => {
    n += 1;
    const pair = n % pairs;
    const [a, b] = [target.accountIds[2 * pair], target.accountIds[2 * pair + 1]];
    const forth = Math.floor(n / pairs) % 2 === 0;
    return {
      body: JSON.stringify({
        fromAccountId: forth ? a : b,
        to: { accountId: forth ? b : a },
        amount: 100,
        description: 'bench transfer',
      }),
    };
  };
}

const BOOKINGS = '/v1/simulations/transaction';
/** The same route with converted bodies (a marker only: the URL stays BOOKINGS). */
const CONVERTED = '/v1/simulations/transaction#converted';

/** The booking floor's load (floor.ts): ±100 over every account in turn; converted: ±25 EUR cents on the PLN accounts. */
function bookingStream(target: FloorShapedTarget, converted = false) {
  let n = 0;
  return () => {
    n += 1;
    const accountId = target.accountIds[n % target.accountIds.length];
    const sign = n % 2 ? 1 : -1;
    return {
      body: JSON.stringify(
        converted
          ? { accountId, originalAmount: sign * 25, originalCurrency: 'EUR', description: 'bench' }
          : { accountId, amount: sign * 100, description: 'bench' },
      ),
    };
  };
}

export async function compareTransfersWithFloor(
  baseUrl: string,
  target: FloorShapedTarget,
  options: {
    databaseUrl: string;
    floorPort: number;
    connections: number;
    seconds: number;
    turns: number;
    pids?: Record<string, number | undefined>;
    groups?: Record<string, () => number[]>;
    /** Also converted bookings on Sandbank in each turn (issue 41). */
    converted?: boolean;
  },
): Promise<TransferComparison> {
  const floorServer = spawnApp(WRITE_FLOOR_ENTRY, {
    DATABASE_URL: options.databaseUrl,
    PORT: String(options.floorPort),
    HOST: '127.0.0.1',
  });
  try {
    await waitFor200(`http://127.0.0.1:${options.floorPort}/readyz`, performance.now());
    const run = async (url: string, pids: Record<string, number | undefined>, route = '/v1/payments'): Promise<MeteredRun> => {
      const meter = cpuMeter(pids, options.groups);
      const result = await load({
        url: `${url}${route.replace('#converted', '')}`,
        method: 'POST',
        connections: options.connections,
        durationSeconds: options.seconds,
        headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
        request: route === '/v1/payments' ? transferStream(target) : bookingStream(target, route === CONVERTED),
      });
      const used = meter.stop();
      if (result.non2xx + result.errors > 0) {
        throw new Error(`transfers against ${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
      }
      const cpuMicrosPerRequest = Object.fromEntries(
        Object.entries(used).map(([name, s]) => [name, Math.round((s * 1e6) / Math.max(1, result.total))]),
      );
      return { ...result, cpuMicrosPerRequest };
    };
    const floorUrl = `http://127.0.0.1:${options.floorPort}`;
    // Warm both (JIT, pools, plans) before the measured turns.
    await load({
      url: `${baseUrl}/v1/payments`,
      method: 'POST',
      connections: options.connections,
      durationSeconds: 4,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
      request: transferStream(target),
    });
    await load({
      url: `${floorUrl}/v1/payments`,
      method: 'POST',
      connections: options.connections,
      durationSeconds: 4,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
      request: transferStream(target),
    });
    const turns: TransferTurn[] = [];
    for (let turn = 1; turn <= options.turns; turn++) {
      const sandbank = await run(baseUrl, options.pids ?? {});
      const floor = await run(floorUrl, { floor: floorServer.child.pid });
      const ratio = Number((sandbank.requestsPerSecond / Math.max(1, floor.requestsPerSecond)).toFixed(2));
      const bookingRun = await run(baseUrl, options.pids ?? {}, BOOKINGS);
      const bookingFloor = await run(floorUrl, { floor: floorServer.child.pid }, BOOKINGS);
      const bookingRatio = Number((bookingRun.requestsPerSecond / Math.max(1, bookingFloor.requestsPerSecond)).toFixed(2));
      const convertedRun = options.converted ? await run(baseUrl, options.pids ?? {}, CONVERTED) : null;
      const over = (a: number, b: number) => Number((a / Math.max(1, b)).toFixed(2));
      const converted = convertedRun
        ? {
            sandbank: convertedRun,
            overFloorBooking: over(convertedRun.requestsPerSecond, bookingFloor.requestsPerSecond),
            overPlain: over(convertedRun.requestsPerSecond, bookingRun.requestsPerSecond),
          }
        : null;
      turns.push({
        sandbank,
        floor,
        ratio,
        bookings: { sandbank: bookingRun, floor: bookingFloor, ratio: bookingRatio },
        converted,
      });
      const line = (name: string, r: MeteredRun) =>
        `${name} ${r.requestsPerSecond} req/s p99 ${r.p99} ms ${JSON.stringify(r.cpuMicrosPerRequest)}`;
      console.log(
        `transfer turn ${turn}: ${line('Sandbank', sandbank)}; ${line('floor', floor)} → ${ratio}; ` +
          `bookings: ${line('Sandbank', bookingRun)}; ${line('floor', bookingFloor)} → ${bookingRatio}` +
          (converted
            ? `; ${line('converted', converted.sandbank)} → ${converted.overFloorBooking}, ${converted.overPlain} of plain`
            : ''),
      );
    }
    const sandbankP99 = median(turns.map((t) => t.sandbank.p99));
    const floorP99 = median(turns.map((t) => t.floor.p99));
    return {
      turns,
      sandbankRequestsPerSecond: median(turns.map((t) => t.sandbank.requestsPerSecond)),
      floorRequestsPerSecond: median(turns.map((t) => t.floor.requestsPerSecond)),
      ratio: median(turns.map((t) => t.ratio)),
      sandbankP99,
      floorP99,
      p99Ratio: Number((sandbankP99 / Math.max(1, floorP99)).toFixed(2)),
      bookingRatio: median(turns.map((t) => t.bookings.ratio)),
      converted: options.converted
        ? {
            overFloorBooking: median(turns.map((t) => t.converted?.overFloorBooking ?? 0)),
            overPlain: median(turns.map((t) => t.converted?.overPlain ?? 0)),
          }
        : null,
    };
  } finally {
    await floorServer.stop();
  }
}
