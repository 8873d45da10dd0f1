/**
 * The HTTP side of one delivery attempt: a POST with a hard timeout over an undici Agent whose
 * connector refuses non-public addresses (unless allowed) on the address actually connected to.
 * Redirects are not followed (a 3xx is a failed attempt), and at most `RESPONSE_READ_LIMIT`
 * bytes of the answer are read, of which the first `RESPONSE_EXCERPT_BYTES` are kept for the
 * attempt's record (the delivery log shows them).
 */
import { assertPublicHost, guardedLookup, type UrlPolicy } from '@sandbank/webhooks';
import { Agent, request } from 'undici';

const RESPONSE_READ_LIMIT = 4096;
/** How much of the receiver's body an attempt keeps. */
const RESPONSE_EXCERPT_BYTES = 2048;
/** The answer's headers an attempt keeps, each cut to `HEADER_VALUE_LIMIT` characters. */
const KEPT_RESPONSE_HEADERS = ['content-type', 'content-length'] as const;
const HEADER_VALUE_LIMIT = 200;

export interface AttemptOutcome {
  statusCode: number | null;
  durationMs: number;
  /** Null on a 2xx; otherwise a short reason (`HTTP 500`, `timeout after 10000 ms`, a network error). */
  error: string | null;
}

/** What the receiver answered, as an attempt records it. */
export interface ReceivedAnswer {
  status: number;
  /** content-type and content-length, when present. */
  headers: Record<string, string>;
  /** The first `RESPONSE_EXCERPT_BYTES` of the body as UTF-8, invalid bytes (and NUL) as U+FFFD. */
  body: string;
  /** True when the body was longer than the excerpt. */
  truncated: boolean;
}

/** An outcome with the answer behind it; `response` is null when none came (timeout, network error). */
export interface PostResult extends AttemptOutcome {
  response: ReceivedAnswer | null;
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
): Promise<PostResult> {
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
    const excerpt = await drain(response.body);
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    return {
      statusCode: response.statusCode,
      durationMs: elapsed(),
      error: ok ? null : `HTTP ${response.statusCode}`,
      response: { status: response.statusCode, headers: keptHeaders(response.headers), ...excerpt },
    };
  } catch (error) {
    if (shutdown.aborted) throw error;
    const reason = timeout.aborted ? `timeout after ${timeoutMs} ms` : describe(error);
    return { statusCode: null, durationMs: elapsed(), error: reason, response: null };
  }
}

/**
 * Reads the answer up to the limit (so the connection can be reused), keeps its first
 * `RESPONSE_EXCERPT_BYTES` and drops the rest.
 */
async function drain(body: AsyncIterable<Buffer> & { destroy(): void }): Promise<{ body: string; truncated: boolean }> {
  const kept: Buffer[] = [];
  let read = 0;
  for await (const chunk of body) {
    if (read < RESPONSE_EXCERPT_BYTES) kept.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - read));
    read += chunk.length;
    if (read > RESPONSE_READ_LIMIT) {
      body.destroy();
      break;
    }
  }
  const truncated = read > RESPONSE_EXCERPT_BYTES;
  const bytes = Buffer.concat(kept);
  return { body: decodeExcerpt(truncated ? completeCharacters(bytes) : bytes), truncated };
}

/** UTF-8 with replacement; NUL (which PostgreSQL text cannot hold) as U+FFFD too. */
function decodeExcerpt(bytes: Uint8Array): string {
  return new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes).replaceAll('\u0000', '\uFFFD');
}

/** Drops a multi-byte character cut in half at the end, so a cut does not read as a bad byte. */
function completeCharacters(bytes: Uint8Array): Uint8Array {
  let lead = bytes.length - 1;
  while (lead >= 0 && bytes.length - lead <= 3 && ((bytes[lead] ?? 0) & 0xc0) === 0x80) lead--;
  if (lead < 0) return bytes;
  const byte = bytes[lead] ?? 0;
  const length = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
  return bytes.length - lead < length ? bytes.subarray(0, lead) : bytes;
}

function keptHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of KEPT_RESPONSE_HEADERS) {
    const value = headers[name];
    if (value === undefined) continue;
    kept[name] = (Array.isArray(value) ? value.join(', ') : value).slice(0, HEADER_VALUE_LIMIT).replaceAll('\u0000', '\uFFFD');
  }
  return kept;
}

function describe(error: unknown): string {
  if (!(error instanceof Error)) return 'request failed';
  const code = (error as { code?: string }).code;
  const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${code ? `${code} ` : ''}${error.message}${cause}`.slice(0, 500);
}
