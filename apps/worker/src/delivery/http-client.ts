/**
 * The HTTP side of one delivery attempt: a POST with a hard timeout over an undici Agent whose
 * connector refuses non-public addresses (unless allowed) on the address actually connected to.
 * Redirects are not followed (a 3xx is a failed attempt), and at most `RESPONSE_READ_LIMIT`
 * bytes of the answer are read.
 */
import { assertPublicHost, guardedLookup, type UrlPolicy } from '@sandbank/webhooks';
import { Agent, request } from 'undici';

const RESPONSE_READ_LIMIT = 4096;

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  /** Null on a 2xx; otherwise a short reason (`HTTP 500`, `timeout after 10000 ms`, a network error). */
  error: string | null;
}

export function createDeliveryAgent(policy: UrlPolicy, connections: number): Agent {
  return new Agent({
    connect: { lookup: guardedLookup(policy) as never, timeout: 5_000 },
    connections,
    keepAliveTimeout: 4_000,
  });
}

export interface PostOptions {
  url: string;
  headers: Record<string, string>;
  body: string;
  timeoutMs: number;
  policy: UrlPolicy;
  /** Aborts the request when the worker shuts down; the caller rethrows so the job is retried. */
  shutdown: AbortSignal;
}

export async function postWebhook(
  agent: Agent,
  { url, headers, body, timeoutMs, policy, shutdown }: PostOptions,
): Promise<AttemptOutcome> {
  const started = performance.now();
  const timeout = AbortSignal.timeout(timeoutMs);
  const elapsed = () => Math.round(performance.now() - started);
  try {
    assertPublicHost(new URL(url), policy);
    const response = await request(url, {
      method: 'POST',
      headers,
      body,
      dispatcher: agent,
      signal: AbortSignal.any([timeout, shutdown]),
      headersTimeout: timeoutMs,
      bodyTimeout: timeoutMs,
    });
    await drain(response.body);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return { statusCode: response.statusCode, durationMs: elapsed(), error: ok ? null : `HTTP ${response.statusCode}` };
  } catch (error) {
    if (shutdown.aborted) throw error;
    const reason = timeout.aborted ? `timeout after ${timeoutMs} ms` : describe(error);
    return { statusCode: null, durationMs: elapsed(), error: reason };
  }
}

/** Reads the answer up to the limit (so the connection can be reused) and drops the rest. */
async function drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<void> {
  let read = 0;
  for await (const chunk of body) {
    read += chunk.length;
    if (read > RESPONSE_READ_LIMIT) {
      body.destroy();
      return;
    }
  }
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'request failed';
  const code = (error as { code?: string }).code;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${code ? `${code} ` : ''}${error.message}${cause}`.slice(0, 500);
}
