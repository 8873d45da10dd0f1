/**
 * GoCardless Bank Account Data's credentials (docs/faces/gocardless.md): `secret_id` is the id of one of the user's
 * API keys and `secret_key` that key, so revoking the key ends the face's access. `POST /token/new/`
 * trades them for an access JWT (24 h) and a refresh JWT (30 d), issued and checked on the world's
 * clock (a clock advance expires them). Every token names its key: a revoked or expired key refuses
 * its tokens at once. They are signed with the API's JWT secret under an audience of their own, so
 * a GoCardless token never passes as a Sandbank access token, nor the other way round.
 */
import type { Config } from '@sandbank/config';
import type { EntityManager } from '@sandbank/db';
import { decodeJwt, jwtVerify, SignJWT } from 'jose';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { authenticateApiKey } from '../integrations/authenticate-api-key.ts';
import { selectTokenKey } from './queries.ts';

const ACCESS_TTL_SECONDS = 24 * 3600;
const REFRESH_TTL_SECONDS = 30 * 24 * 3600;
const ALGORITHM = 'HS256';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

type TokenKind = 'access' | 'refresh';
type TokenDeps = Pick<Deps, 'config' | 'secrets'>;

export interface GocardlessCaller {
  userId: string;
  /** The API key's id (the `secret_id`): not secret, so rate limits key on it. */
  keyId: string;
}

export interface GocardlessTokens {
  access: string;
  accessExpires: number;
  refresh: string;
  refreshExpires: number;
}

const audienceOf = (config: Config) => `${config.auth.audience}:gocardless`;

async function sign(deps: TokenDeps, caller: GocardlessCaller, kind: TokenKind, now: Date): Promise<string> {
  const iat = Math.floor(now.getTime() / 1000);
  return new SignJWT({ token_type: kind, key: caller.keyId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(caller.userId)
    .setIssuer(deps.config.auth.issuer)
    .setAudience(audienceOf(deps.config))
    .setIssuedAt(iat)
    .setJti(uuidv7())
    .setExpirationTime(iat + (kind === 'access' ? ACCESS_TTL_SECONDS : REFRESH_TTL_SECONDS))
    .sign(deps.secrets.jwtSecret);
}

/** New tokens for a `secret_id`/`secret_key` pair, or null when the pair is not a live key of one user. */
export async function issueGocardlessTokens(
  em: EntityManager,
  deps: TokenDeps,
  { secretId, secretKey }: { secretId: string; secretKey: string },
): Promise<GocardlessTokens | null> {
  let caller: GocardlessCaller & { now: Date };
  try {
    const identity = await authenticateApiKey(em, deps.config, secretKey, { keyId: secretId.toLowerCase() });
    if (identity.kind !== 'user') return null;
    caller = { userId: identity.userId, keyId: identity.keyId, now: identity.userNow };
  } catch (error) {
    if (error instanceof AppError) return null;
    throw error;
  }
  return {
    access: await sign(deps, caller, 'access', caller.now),
    accessExpires: ACCESS_TTL_SECONDS,
    refresh: await sign(deps, caller, 'refresh', caller.now),
    refreshExpires: REFRESH_TTL_SECONDS,
  };
}

/**
 * Who a token of this kind speaks for, checked against its world's now and its key's state; null if
 * it is malformed, forged, of the other kind, expired in its world, or its key is revoked or expired.
 */
export async function verifyGocardlessToken(
  em: EntityManager,
  deps: TokenDeps,
  token: string,
  kind: TokenKind,
): Promise<(GocardlessCaller & { now: Date }) | null> {
  let claims: ReturnType<typeof decodeJwt>;
  try {
    claims = decodeJwt(token);
  } catch {
    return null;
  }
  const { sub, key } = claims;
  if (typeof sub !== 'string' || typeof key !== 'string' || !UUID.test(sub) || !UUID.test(key)) return null;
  const row = await selectTokenKey(em, sub, key);
  // A revoked key, or a child world past its TTL not yet swept, ends the tokens made with it.
  if (!row || row.revoked_at || row.world_expired) return null;
  const now = new Date(row.now);
  if (row.expires_at && new Date(row.expires_at).getTime() <= now.getTime()) return null;
  try {
    const { payload } = await jwtVerify(token, deps.secrets.jwtSecret, {
      algorithms: [ALGORITHM],
      issuer: deps.config.auth.issuer,
      audience: audienceOf(deps.config),
      currentDate: now,
      clockTolerance: 0,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    if (payload.token_type !== kind) return null;
  } catch {
    return null;
  }
  return { userId: sub, keyId: key, now };
}

/** A new access token for a live refresh token (`POST /token/refresh/`), or null. */
export async function refreshGocardlessAccess(
  em: EntityManager,
  deps: TokenDeps,
  refresh: string,
): Promise<{ access: string; accessExpires: number } | null> {
  const caller = await verifyGocardlessToken(em, deps, refresh, 'refresh');
  if (!caller) return null;
  return { access: await sign(deps, caller, 'access', caller.now), accessExpires: ACCESS_TTL_SECONDS };
}
