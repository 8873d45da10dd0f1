/**
 * Standard Webhooks signatures for `sandbank listen`: a local secret in the `whsec_<base64>` form
 * every Standard Webhooks library takes as is, and `v1,` + base64(HMAC-SHA256(key, `id.timestamp.body`)).
 */
import { createHmac, randomBytes } from 'node:crypto';

export const newLocalSecret = () => `whsec_${randomBytes(24).toString('base64')}`;

/** The key bytes of a `whsec_…` secret (base64 after the prefix). */
export function secretKey(secret: string): Buffer {
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  if (key.length < 16 || !/^(whsec_)?[A-Za-z0-9+/]+={0,2}$/.test(secret)) {
    throw new Error('the secret must be whsec_ followed by base64 of at least 16 bytes');
  }
  return key;
}

export function standardHeaders(key: Buffer, id: string, body: string, now = new Date()): Record<string, string> {
  const timestamp = Math.floor(now.getTime() / 1000);
  const signature = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestamp), 'webhook-signature': `v1,${signature}` };
}
