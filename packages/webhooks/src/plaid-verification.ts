/**
 * Plaid's webhook signature (docs/faces/plaid.md): `Plaid-Verification` is an ES256 JWT whose header names the
 * key (`kid`) and whose claims are `iat` (wall-time seconds: receivers refuse one older than 5
 * minutes) and `request_body_sha256` (hex SHA-256 of the exact body bytes). Receivers fetch the
 * public key with `/webhook_verification_key/get`. Made with `jose`, as Plaid's docs verify it.
 */
import { createHash } from 'node:crypto';
import { exportJWK, generateKeyPair, importJWK, type JWK, SignJWT } from 'jose';

export const PLAID_VERIFICATION_HEADER = 'Plaid-Verification';

export interface PlaidSigningKey {
  kid: string;
  privateJwk: JWK;
  publicJwk: JWK;
}

/** A new P-256 key pair, both halves as JWKs (the private one is sealed before it is stored). */
export async function generatePlaidSigningKey(kid: string): Promise<PlaidSigningKey> {
  const { privateKey, publicKey } = await generateKeyPair('ES256', { extractable: true });
  return { kid, privateJwk: await exportJWK(privateKey), publicJwk: await exportJWK(publicKey) };
}

/** The `Plaid-Verification` value for `body`, issued at `nowSeconds` (wall time). */
export async function signPlaidWebhook(key: { kid: string; privateJwk: JWK }, body: string, nowSeconds: number): Promise<string> {
  const privateKey = await importJWK(key.privateJwk, 'ES256');
  return new SignJWT({ request_body_sha256: createHash('sha256').update(body, 'utf8').digest('hex') })
    .setProtectedHeader({ alg: 'ES256', kid: key.kid, typ: 'JWT' })
    .setIssuedAt(nowSeconds)
    .sign(privateKey);
}
