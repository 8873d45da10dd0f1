/**
 * Signing and encryption keys. Production must configure them (checked in `loadConfig`); in
 * development and tests a key that is not configured is generated once and kept in the data
 * folder, so restarts keep sessions valid and stored webhook secrets readable.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.ts';

interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface Secrets {
  jwtSecret: Uint8Array;
  /** The first key encrypts; every key decrypts (rotation). */
  encryptionKeys: EncryptionKey[];
}

export function resolveSecrets(config: Config): Secrets {
  const generated = config.auth.jwtSecret && config.webhooks.encryptionKeys ? null : loadDevKeys(config.dataDir);
  const jwtSecret = config.auth.jwtSecret ?? generated?.jwtSecret ?? '';
  const encryptionKeys = parseEncryptionKeys(config.webhooks.encryptionKeys ?? generated?.encryptionKeys ?? '');
  return { jwtSecret: new TextEncoder().encode(jwtSecret), encryptionKeys };
}

/** `kid:base64key[,kid:base64key…]`, each key 32 bytes (AES-256). */
function parseEncryptionKeys(value: string): EncryptionKey[] {
  const keys = value.split(',').map((entry) => {
    const [id, encoded] = entry.trim().split(':');
    const key = Buffer.from(encoded ?? '', 'base64');
    if (!id || key.length !== 32) {
      throw new Error('WEBHOOK_ENCRYPTION_KEYS: expected kid:base64-of-32-bytes[,kid:…]');
    }
    return { id, key };
  });
  return keys;
}

interface DevKeys {
  jwtSecret: string;
  encryptionKeys: string;
}

function loadDevKeys(dataDir: string): DevKeys {
  const file = path.join(dataDir, 'dev-keys.json');
  try {
    return JSON.parse(fs.readFileSync(file, 'utf8')) as DevKeys;
  } catch {
    const keys: DevKeys = {
      jwtSecret: randomBytes(48).toString('base64url'),
      encryptionKeys: `dev1:${randomBytes(32).toString('base64')}`,
    };
    fs.mkdirSync(dataDir, { recursive: true });
    // `wx`: if another process created it first, read theirs instead of overwriting.
    try {
      fs.writeFileSync(file, JSON.stringify(keys), { mode: 0o600, flag: 'wx' });
      return keys;
    } catch {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as DevKeys;
    }
  }
}
