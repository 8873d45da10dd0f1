/**
 * Enable Banking applications (docs/faces/enablebanking.md): what a world's owner registers so an app
 * can call the face. Enable Banking identifies an app by its key: the app signs every call with its
 * own RS256 JWT (`kid` = the application's id) and the face checks it with the public key kept
 * here. The owner may bring a public key (PEM, RSA, at least 2048 bits); otherwise Sandbank makes an
 * RSA pair with `jose`, keeps the public half and answers the private half once (it is never stored).
 */
import { createPublicKey, randomUUID } from 'node:crypto';
import type { EntityManager } from '@sandbank/db';
import { exportPKCS8, exportSPKI, generateKeyPair } from 'jose';
import { AppError, notFound } from '../../errors.ts';
import { userNow } from '../clock/clock.ts';
import { checkUserLimit } from '../limits/per-user-limits.ts';
import { type ApplicationRow, deleteApplication, insertApplication, selectApplications } from './queries.ts';

/** RSA keys shorter than this are refused (Enable Banking asks for 2048-bit keys or longer). */
const MIN_MODULUS_BITS = 2048;

export interface Application {
  id: string;
  userId: string;
  name: string;
  redirectUrls: string[];
  /** SPKI PEM. */
  publicKey: string;
  createdAt: Date;
}

export const toApplication = (row: ApplicationRow): Application => ({
  id: row.id,
  userId: row.user_id,
  name: row.name,
  redirectUrls: row.redirect_urls,
  publicKey: row.public_key,
  createdAt: new Date(row.created_at),
});

const invalidKey = (message: string) => new AppError('VALIDATION_ERROR', message, { details: [{ path: 'publicKey', message }] });

/** The owner's public key as SPKI PEM, refused unless it is an RSA key of at least 2048 bits. */
function checkedPublicKey(pem: string): string {
  let key: ReturnType<typeof createPublicKey>;
  try {
    key = createPublicKey({ key: pem, format: 'pem' });
  } catch {
    throw invalidKey('publicKey must be a PEM-encoded public key');
  }
  if (key.asymmetricKeyType !== 'rsa') throw invalidKey('publicKey must be an RSA key (the JWTs are RS256)');
  if ((key.asymmetricKeyDetails?.modulusLength ?? 0) < MIN_MODULUS_BITS)
    throw invalidKey(`publicKey must be at least ${MIN_MODULUS_BITS} bits long`);
  return key.export({ type: 'spki', format: 'pem' }).toString();
}

/** A fresh RS256 pair: the public half to keep, the private half to answer once. */
async function newKeyPair(): Promise<{ publicKey: string; privateKey: string }> {
  const pair = await generateKeyPair('RS256', { modulusLength: MIN_MODULUS_BITS, extractable: true });
  return { publicKey: await exportSPKI(pair.publicKey), privateKey: await exportPKCS8(pair.privateKey) };
}

/**
 * Registers an application of the user; `privateKey` is in the answer only when Sandbank made the
 * pair. An application is a credential: it counts toward LIMIT_API_KEYS with the user's active API
 * keys (`limit`; serialised per user, like every per-user limit).
 */
export async function createApplication(
  em: EntityManager,
  params: { userId: string; name: string; redirectUrls: string[]; publicKey?: string | undefined; limit: number },
): Promise<{ application: Application; privateKey: string | undefined }> {
  const pair = params.publicKey === undefined ? await newKeyPair() : undefined;
  const publicKey = pair ? pair.publicKey : checkedPublicKey(params.publicKey ?? '');
  const application = await em.transactional(async (tx) => {
    await checkUserLimit(tx, { userId: params.userId, resource: 'apiKeys', limit: params.limit });
    const row = await insertApplication(tx, {
      id: randomUUID(),
      userId: params.userId,
      name: params.name,
      redirectUrls: [...new Set(params.redirectUrls)],
      publicKey,
      now: await userNow(tx, params.userId),
    });
    if (!row) throw new Error('the application just inserted is gone');
    return toApplication(row);
  });
  return { application, privateKey: pair?.privateKey };
}

/** The user's applications, newest first, and how many there are. */
export async function listApplications(
  em: EntityManager,
  params: { userId: string; limit: number; offset: number },
): Promise<{ count: number; results: Application[] }> {
  const { rows, count } = await selectApplications(em, params);
  return { count, results: rows.map(toApplication) };
}

/**
 * Removes an application of the user: its JWTs stop at once (401, unknown `kid`), and its
 * authorizations and sessions go with it. Another user's, or one removed already, is 404.
 */
export async function removeApplication(em: EntityManager, { userId, id }: { userId: string; id: string }): Promise<Application> {
  const row = await deleteApplication(em, userId, id);
  if (!row) throw notFound('Application');
  return toApplication(row);
}
