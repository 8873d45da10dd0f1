/**
 * Webhook secrets at rest: AES-256-GCM under a key from the environment. The key id is kept
 * beside the ciphertext, so keys can rotate: new secrets use the first key, old ones still open.
 */
import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface SealedSecret {
  keyId: string;
  /** base64(iv ‖ tag ‖ ciphertext) */
  ciphertext: string;
}

const IV_BYTES = 12;
const TAG_BYTES = 16;

export function sealSecret(secret: string, keys: readonly EncryptionKey[]): SealedSecret {
  const [current] = keys;
  if (!current) throw new Error('no encryption key configured');
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', current.key, iv);
  const encrypted = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
  return { keyId: current.id, ciphertext: Buffer.concat([iv, cipher.getAuthTag(), encrypted]).toString('base64') };
}

export function openSecret(sealed: SealedSecret, keys: readonly EncryptionKey[]): string {
  const entry = keys.find((candidate) => candidate.id === sealed.keyId);
  if (!entry) throw new Error(`encryption key ${sealed.keyId} is not configured`);
  const raw = Buffer.from(sealed.ciphertext, 'base64');
  const decipher = createDecipheriv('aes-256-gcm', entry.key, raw.subarray(0, IV_BYTES));
  decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString('utf8');
}
