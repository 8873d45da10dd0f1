/**
 * Enable Banking's application JWT, checked as Enable Banking documents it: RS256, the header's `kid`
 * the application's id, `iss` `enablebanking.com`, `aud` `api.enablebanking.com`, `iat` and `exp`
 * present and at most 24 h apart. Verified with `jose` on wall time: the app signs on its own clock,
 * not on its world's (sessions and consents use the world's clock). Nothing else passes: `alg: none`,
 * HS256 with the public key as a secret, an unknown `kid`, a removed world's application.
 */
import type { EntityManager } from '@sandbank/db';
import { decodeProtectedHeader, importSPKI, jwtVerify } from 'jose';
import { type Application, toApplication } from './applications.ts';
import { selectApplication } from './queries.ts';

export const JWT_ISSUER = 'enablebanking.com';
export const JWT_AUDIENCE = 'api.enablebanking.com';
/** The longest a token may live: `exp - iat`. */
export const MAX_JWT_SECONDS = 86_400;
/** Longer tokens are not read at all (a 4096-bit RS256 JWT is under 1 KiB). */
const MAX_JWT_LENGTH = 8192;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Why a JWT was refused, for the face's error message (never the token itself). */
export type JwtRefusal = 'malformed' | 'algorithm' | 'unknown-kid' | 'signature' | 'claims' | 'expired' | 'too-long';

export type JwtOutcome = { ok: true; application: Application } | { ok: false; refusal: JwtRefusal };

export async function verifyApplicationJwt(em: EntityManager, token: string): Promise<JwtOutcome> {
  if (token.length > MAX_JWT_LENGTH) return { ok: false, refusal: 'malformed' };
  let header: ReturnType<typeof decodeProtectedHeader>;
  try {
    header = decodeProtectedHeader(token);
  } catch {
    return { ok: false, refusal: 'malformed' };
  }
  if (header.alg !== 'RS256') return { ok: false, refusal: 'algorithm' };
  if (typeof header.kid !== 'string' || !UUID.test(header.kid)) return { ok: false, refusal: 'unknown-kid' };
  const row = await selectApplication(em, header.kid.toLowerCase());
  if (!row || row.world_expired) return { ok: false, refusal: 'unknown-kid' };
  const key = await importSPKI(row.public_key, 'RS256');
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['RS256'],
      issuer: JWT_ISSUER,
      audience: JWT_AUDIENCE,
      requiredClaims: ['iat', 'exp'],
    });
    if ((payload.exp ?? 0) - (payload.iat ?? 0) > MAX_JWT_SECONDS) return { ok: false, refusal: 'too-long' };
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_JWT_EXPIRED') return { ok: false, refusal: 'expired' };
    if (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED') return { ok: false, refusal: 'claims' };
    return { ok: false, refusal: code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED' ? 'signature' : 'malformed' };
  }
  return { ok: true, application: toApplication(row) };
}
