/**
 * Webhook signatures in the Standard Webhooks scheme, so receivers can verify with existing
 * libraries: `v1,` + base64(HMAC-SHA256(secret's UTF-8 bytes, `${id}.${timestamp}.${body}`)).
 * The worker signs with this module and receivers (and our tests) verify with it.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADERS = {
  timestamp: 'x-sandbank-timestamp',
  idempotencyKey: 'x-sandbank-idempotency-key',
  signature: 'x-sandbank-signature',
  standardTimestamp: 'webhook-timestamp',
  standardId: 'webhook-id',
  standardSignature: 'webhook-signature',
} as const;

export function signPayload(secret: string, idempotencyKey: string, timestamp: number, rawBody: string): string {
  const mac = createHmac('sha256', Buffer.from(secret, 'utf8'))
    .update(`${idempotencyKey}.${timestamp}.${rawBody}`)
    .digest('base64');
  return `v1,${mac}`;
}

export type WebhookHeaders = Record<string, string>;

/**
 * The six headers of one delivery attempt: ours and the Standard Webhooks names, same values.
 * With several secrets (a rotation's overlap: the new one first) the signature header carries one
 * `v1,` signature per secret, space-separated, so a receiver verifies with either.
 */
export function signatureHeaders(
  secrets: string | readonly string[],
  idempotencyKey: string,
  rawBody: string,
  now = new Date(),
): WebhookHeaders {
  const timestamp = Math.floor(now.getTime() / 1000);
  const signature = (typeof secrets === 'string' ? [secrets] : secrets)
    .map((secret) => signPayload(secret, idempotencyKey, timestamp, rawBody))
    .join(' ');
  return {
    'X-Sandbank-Timestamp': String(timestamp),
    'X-Sandbank-Idempotency-Key': idempotencyKey,
    'X-Sandbank-Signature': signature,
    'webhook-timestamp': String(timestamp),
    'webhook-id': idempotencyKey,
    'webhook-signature': signature,
  };
}

export interface VerifyOptions {
  /** Largest accepted clock difference, in seconds (default 300, as Standard Webhooks). */
  toleranceSeconds?: number;
  now?: Date;
}

/**
 * Verifies a delivery as a receiver would: reads our headers (or the Standard Webhooks ones),
 * checks the timestamp is recent and that one of the space-separated `v1,` signatures matches.
 */
export function verifySignature(
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  secret: string,
  { toleranceSeconds = 300, now = new Date() }: VerifyOptions = {},
): boolean {
  const read = (...names: string[]) => {
    for (const name of names) {
      const value = headers[name] ?? headers[name.toLowerCase()];
      if (typeof value === 'string') return value;
      const lower = Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
      if (typeof lower === 'string') return lower;
    }
    return undefined;
  };
  const id = read(SIGNATURE_HEADERS.idempotencyKey, SIGNATURE_HEADERS.standardId);
  const timestamp = Number(read(SIGNATURE_HEADERS.timestamp, SIGNATURE_HEADERS.standardTimestamp));
  const signatures = read(SIGNATURE_HEADERS.signature, SIGNATURE_HEADERS.standardSignature);
  if (!id || !Number.isInteger(timestamp) || !signatures) return false;
  if (Math.abs(now.getTime() / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(signPayload(secret, id, timestamp, rawBody));
  return signatures.split(' ').some((candidate) => {
    const given = Buffer.from(candidate);
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}
