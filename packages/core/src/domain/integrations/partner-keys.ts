/**
 * Partner keys: operator-configured keys (PARTNER_API_KEYS) that read every owner. They are
 * hashed once per configuration and only their hashes are kept; a presented key's hash is
 * compared with every one of them in constant time.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Config } from '@sandbank/config';
import { sha256 } from '../auth/tokens.ts';

interface PartnerKey {
  hash: Buffer;
  /** A stable, non-secret id for rate limits and logs: the start of the key's hash. */
  id: string;
}

const partnerKeysByConfig = new WeakMap<Config, PartnerKey[]>();

/** Hashes the configured keys; call it at start-up so no request pays for it. */
export function partnerKeys(config: Config): PartnerKey[] {
  let keys = partnerKeysByConfig.get(config);
  if (!keys) {
    keys = config.integrations.partnerApiKeys.map((key) => {
      const hex = sha256(key);
      return { hash: Buffer.from(hex, 'hex'), id: `partner_${hex.slice(0, 12)}` };
    });
    partnerKeysByConfig.set(config, keys);
  }
  return keys;
}

/** The id of the partner key whose SHA-256 (hex) this is, or null. Compares with every key, no early exit. */
export function matchPartnerKey(config: Config, keyHash: string): string | null {
  const presented = Buffer.from(keyHash, 'hex');
  let match: string | null = null;
  for (const key of partnerKeys(config)) {
    const equal = key.hash.length === presented.length && timingSafeEqual(key.hash, presented);
    if (equal && match === null) match = key.id;
  }
  return match;
}
