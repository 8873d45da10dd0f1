/**
 * Access tokens: short-lived HS256 JWTs (issuer, audience, subject, expiry, unique id), verified
 * strictly. Refresh tokens are opaque random strings stored only as SHA-256 hashes.
 *
 * A child world's token carries `wld: true`: it is good only while its world lives, which
 * `authenticateAccessToken` asks the database on every request (one primary-key lookup, for these
 * tokens only), so a world removed (or past its TTL) refuses its token at once, not when it expires.
 */
import { createHash, randomBytes, webcrypto } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import { errors, jwtVerify, SignJWT } from 'jose';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { worldIsLive } from './queries.ts';

export interface AuthUser {
  id: string;
  /** The session family the token was issued for (logout revokes it). */
  sessionId: string;
  /** A child world's token (claim `wld`): valid only while the world lives. */
  world: boolean;
  /** When the token expires (its `exp`, in epoch milliseconds): an open event stream ends then. */
  expiresAtMs: number;
}

const ALGORITHM = 'HS256';

/**
 * The HMAC key, imported into WebCrypto once per secret. Handing jose the raw bytes makes it
 * import the key on every call, which profiling showed as ~10% of a simulation request's CPU.
 */
const importedKeys = new WeakMap<Uint8Array, Promise<webcrypto.CryptoKey>>();
function signingKey(secret: Uint8Array): Promise<webcrypto.CryptoKey> {
  let key = importedKeys.get(secret);
  if (!key) {
    key = webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    importedKeys.set(secret, key);
  }
  return key;
}

export async function signAccessToken(
  deps: Pick<Deps, 'config' | 'secrets'>,
  userId: string,
  sessionId: string,
  { world = false }: { world?: boolean } = {},
): Promise<string> {
  const { auth } = deps.config;
  return new SignJWT(world ? { sid: sessionId, wld: true } : { sid: sessionId })
    .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
    .setSubject(userId)
    .setIssuer(auth.issuer)
    .setAudience(auth.audience)
    .setIssuedAt()
    .setJti(uuidv7())
    .setExpirationTime(`${auth.accessTokenTtlSeconds}s`)
    .sign(await signingKey(deps.secrets.jwtSecret));
}

/**
 * Tokens that verified, until they expire: a client reuses its access token for many requests,
 * and a WebCrypto HMAC per request cost ~10% of a simulation's CPU. Keyed by the whole token
 * (so a tampered one never matches), per secret, bounded (oldest entries evicted first).
 */
const VERIFIED_CACHE_SIZE = 10_000;
const verifiedTokens = new WeakMap<Uint8Array, Map<string, AuthUser>>();

export async function verifyAccessToken(deps: Pick<Deps, 'config' | 'secrets'>, token: string): Promise<AuthUser> {
  let cache = verifiedTokens.get(deps.secrets.jwtSecret);
  if (!cache) {
    cache = new Map();
    verifiedTokens.set(deps.secrets.jwtSecret, cache);
  }
  const hit = cache.get(token);
  if (hit && hit.expiresAtMs > Date.now()) return { ...hit };
  cache.delete(token);

  const { auth } = deps.config;
  try {
    const { payload } = await jwtVerify(token, await signingKey(deps.secrets.jwtSecret), {
      algorithms: [ALGORITHM],
      issuer: auth.issuer,
      audience: auth.audience,
      requiredClaims: ['sub', 'exp', 'iat', 'jti'],
    });
    if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string' || typeof payload.exp !== 'number') {
      throw new Error('claims missing');
    }
    const user = { id: payload.sub, sessionId: payload.sid, world: payload.wld === true, expiresAtMs: payload.exp * 1000 };
    if (cache.size >= VERIFIED_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(token, user);
    return { ...user };
  } catch (error) {
    const expired = error instanceof errors.JWTExpired;
    throw new AppError('UNAUTHENTICATED', expired ? 'The access token has expired' : 'The access token is not valid');
  }
}

/** Is the child world alive (not removed, TTL not passed, wall time)? A prepared statement on the pool. */
/**
 * Verifies an access token, and a child world's token also against its world: removed (its rows are
 * gone) or expired, 401 at once. Every access-token door (the tRPC middlewares, the event stream, the
 * statements) goes through here.
 */
export async function authenticateAccessToken(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  token: string,
): Promise<AuthUser> {
  const user = await verifyAccessToken(deps, token);
  if (user.world) {
    if (!(await worldIsLive(em, user.id)))
      throw new AppError('UNAUTHENTICATED', 'The world of this access token has been removed or has expired');
  }
  return user;
}

/** 256 bits of randomness, URL-safe. */
export const generateOpaqueToken = (prefix = ''): string => prefix + randomBytes(32).toString('base64url');

export const sha256 = (value: string): string => createHash('sha256').update(value).digest('hex');
