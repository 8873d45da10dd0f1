/** autocannon runs, summarised as requests/s and latency percentiles. */
import autocannon from 'autocannon';

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  total: number;
}

export interface LoadOptions {
  /** Several URLs: autocannon opens connection i to url[i % n] and keeps one histogram for all. */
  url: string | string[];
  connections: number;
  durationSeconds: number;
  method?: 'GET' | 'POST';
  /** A fixed total rate (requests/s) instead of as fast as the server answers. */
  rate?: number;
  headers?: Record<string, string>;
  /** A fresh body and headers per request (e.g. a random account, its owner's token). */
  request?: () => { body?: string; headers?: Record<string, string> };
}

export async function load(options: LoadOptions): Promise<LoadResult> {
  const result = await autocannon({
    // autocannon takes an array (its README: "More than one URL is allowed"); its types say string.
    url: options.url as string,
    connections: options.connections,
    duration: options.durationSeconds,
    method: options.method ?? 'GET',
    ...(options.rate ? { overallRate: options.rate } : {}),
    headers: options.headers ?? {},
    requests: options.request
      ? [
          {
            setupRequest: (request) => {
              const next = options.request?.() ?? {};
              return { ...request, ...(next.body ? { body: next.body } : {}), headers: { ...request.headers, ...next.headers } };
            },
          },
        ]
      : undefined,
  });
  const latency = result.latency as unknown as Record<string, number>;
  return {
    requestsPerSecond: Math.round(result.requests.average),
    p50: latency.p50 ?? 0,
    p95: latency.p95 ?? latency.p97_5 ?? 0,
    p99: latency.p99 ?? 0,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
    total: result.requests.total,
  };
}

/**
 * The bench's booking stream: `POST /v1/simulations/transaction` over every account in turn, three
 * credits of 12.50 to one debit of 5.00, each with its owner's token.
 */
export function simulationStream(accounts: readonly { accountId: string; token: string }[]): LoadOptions['request'] {
  let n = 0;
  return () => {
    n += 1;
    const account = accounts[n % accounts.length];
    return {
      body: JSON.stringify({ accountId: account?.accountId, amount: n % 4 === 0 ? -500 : 1250, description: 'bench' }),
      headers: { authorization: `Bearer ${account?.token}` },
    };
  };
}
