/**
 * SimpleFIN's connect flow (docs/faces/simplefin.md): the user creates a setup token (base64 of a claim URL), a
 * budgeting app POSTs to that URL once and receives an access URL whose password is a new API key
 * of the user, named "SimpleFIN" — listed and revocable like any other; revoking it cuts the app off.
 *
 * The claim code is 256 random bits, stored only as its SHA-256; claiming is one conditional
 * UPDATE (unclaimed and unexpired), so of two racing claims exactly one gets the access URL.
 * Expiry is on wall time: it guards a credential, not an event inside the user's world.
 */
import type { EntityManager } from '@sandbank/db';
import { generateOpaqueToken, sha256 } from '../auth/tokens.ts';
import { createApiKey } from '../integrations/api-keys.ts';
import { claimCode, insertClaim, setClaimApiKey } from './queries.ts';

const SETUP_TOKEN_TTL_MS = 7 * 24 * 3_600_000;
const SIMPLEFIN_KEY_NAME = 'SimpleFIN';

export interface SetupToken {
  setupToken: string;
  claimUrl: string;
  expiresAt: Date;
}

/** `publicUrl` is the server's public origin (PUBLIC_URL), e.g. https://sandbank.example.com. */
export async function createSetupToken(
  em: EntityManager,
  { userId, publicUrl }: { userId: string; publicUrl: string },
): Promise<SetupToken> {
  const code = generateOpaqueToken();
  const expiresAt = new Date(Date.now() + SETUP_TOKEN_TTL_MS);
  await insertClaim(em, { codeHash: sha256(code), userId, expiresAt });
  const claimUrl = `${publicUrl.replace(/\/$/, '')}/simplefin/claim/${code}`;
  return { setupToken: Buffer.from(claimUrl).toString('base64'), claimUrl, expiresAt };
}

/**
 * The access URL for a claim code, or null when the code is unknown, used or expired (the
 * protocol answers 403 to all three alike).
 */
export async function claimSetupToken(
  em: EntityManager,
  { code, publicUrl, apiKeyLimit }: { code: string; publicUrl: string /** LIMIT_API_KEYS */; apiKeyLimit: number },
): Promise<string | null> {
  return em.transactional(async (tx) => {
    const userId = await claimCode(tx, sha256(code));
    if (userId === undefined) return null;
    const { apiKey, key } = await createApiKey(tx, { userId, name: SIMPLEFIN_KEY_NAME, limit: apiKeyLimit });
    await setClaimApiKey(tx, sha256(code), apiKey.id);
    const url = new URL(publicUrl);
    // User and password are URL-safe as they are (a UUID and base64url): clients split on ':' and '@' without decoding.
    return `${url.protocol}//${userId}:${key}@${url.host}${url.pathname.replace(/\/$/, '')}/simplefin`;
  });
}
