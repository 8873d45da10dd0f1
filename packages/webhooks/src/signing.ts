/**
 * Webhook signatures in the Standard Webhooks scheme, so receivers can verify with existing
 * libraries: `v1,` + base64(HMAC-SHA256(key, `${id}.${timestamp}.${body}`)). The key of a secret
 * in the Standard Webhooks form, `whsec_` + base64, is the bytes that base64 encodes (as the
 * specification says, and as `new Webhook(secret)` reads it); any other secret's key is its UTF-8
 * bytes (`new Webhook(secret, { format: 'raw' })`). The worker signs with this module and receivers
 * (and our tests) verify with it.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

export const SIGNATURE_HEADERS = {
  timestamp: 'x-sandbank-timestamp',
  idempotencyKey: 'x-sandbank-idempotency-key',
  signature: 'x-sandbank-signature',
  standardTimestamp: 'webhook-timestamp',
  standardId: 'webhook-id',
  standardSignature: 'webhook-signature',
} as const;

/** The prefix of a secret in the Standard Webhooks form. */
export const STANDARD_SECRET_PREFIX = 'whsec_';
/** The fewest key bytes a `whsec_` secret may encode (128 bits). */
export const STANDARD_SECRET_MIN_BYTES = 16;

/**
 * The bytes a `whsec_` secret's base64 encodes, or null when the rest is not canonical base64
 * (padded, standard alphabet). Registration refuses such a `whsec_` secret; one stored before that
 * check keeps its UTF-8 meaning (`signingKey`).
 */
export function standardSecretKey(secret: string): Buffer | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return null;
  const encoded = secret.slice(STANDARD_SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length > 0 && key.toString('base64') === encoded ? key : null;
}

/** A new secret in the Standard Webhooks form: `whsec_` + base64 of 32 random bytes (256 bits). */
export const newStandardSecret = (): string => STANDARD_SECRET_PREFIX + randomBytes(32).toString('base64');

/** Why a secret cannot be registered, or null when it can (the `whsec_` form must hold a real key). */
export function standardSecretProblem(secret: string): string | null {
  if (!secret.startsWith(STANDARD_SECRET_PREFIX)) return null;
  const key = standardSecretKey(secret);
  if (!key) return 'A whsec_ secret must be whsec_ followed by padded base64 (A–Z, a–z, 0–9, +, /)';
  if (key.length < STANDARD_SECRET_MIN_BYTES) {
    return `A whsec_ secret must encode at least ${STANDARD_SECRET_MIN_BYTES} bytes (it encodes ${key.length})`;
  }
  return null;
}

/** The HMAC key of a secret: a `whsec_` secret's decoded base64, otherwise its UTF-8 bytes. */
export function signingKey(secret: string): Buffer {
  return standardSecretKey(secret) ?? Buffer.from(secret, 'utf8');
}

export function signPayload(secret: string, idempotencyKey: string, timestamp: number, rawBody: string): string {
  const mac = createHmac('sha256', signingKey(secret)).update(`${idempotencyKey}.${timestamp}.${rawBody}`).digest('base64');
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
