/**
 * Webhook verification for receivers: the verification half of `@sandbank/webhooks` (the worker
 * signs with the same module), typed here so the published client's declarations stand alone and
 * its bundle carries the code (`node:crypto` only).
 */
import { verifySignature as verifyWithScheme } from '@sandbank/webhooks/signing';

export interface VerifyOptions {
  /** How far the delivery's timestamp may be from `now`, in seconds; 300 unless given. */
  toleranceSeconds?: number;
  /** Now, as the receiver sees it; the current time unless given. */
  now?: Date;
}

/**
 * Verifies a delivery as a receiver should: the `webhook-*` (Standard Webhooks) or `x-sandbank-*`
 * headers, a timestamp within the tolerance, and one matching `v1,` signature over the exact bytes
 * of the body. During a secret's rotation either secret verifies.
 */
export function verifySignature(
  headers: Record<string, string | string[] | undefined>,
  rawBody: string,
  secret: string,
  options: VerifyOptions = {},
): boolean {
  return verifyWithScheme(headers, rawBody, secret, options);
}
