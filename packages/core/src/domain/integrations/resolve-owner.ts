/**
 * Resolves the pull endpoint's `:owner` to a user id. An owner is a user id, a full e-mail
 * (case-insensitive) or the e-mail's local part (`jan.kowalski+budget`). A user key sees only its
 * own user, so anything else is 404 (never 403); a partner key sees everyone, so a local part
 * shared by several users is 409 CONFLICT.
 */
import type { EntityManager } from '@sandbank/db';
import { z } from 'zod';
import { AppError, notFound } from '../../errors.ts';
import { isStorable } from '../../lib/storable-text.ts';
import type { ApiKeyIdentity } from './authenticate-api-key.ts';
import { selectUsersBy } from './queries.ts';

const isUuid = (value: string) => z.uuid().safeParse(value).success;

/** trpc-to-openapi hands path params over undecoded: `%40` and `%2B` are decoded here, a literal `+` stays `+`. */
function decodeOwner(raw: string): string {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    throw new AppError('VALIDATION_ERROR', 'The owner is not validly URL-encoded', {
      details: [{ path: 'owner', message: 'Malformed percent-encoding' }],
    });
  }
  // Decoding happens after the storable-text rule saw the raw path: apply it again (`%00` → U+0000).
  if (!isStorable(decoded)) {
    throw new AppError('VALIDATION_ERROR', 'The owner is not valid', {
      details: [{ path: 'owner', message: 'Must not contain U+0000 or a lone UTF-16 surrogate' }],
    });
  }
  return decoded;
}

/** The user an owner names, and the now of that user's world (the pull's default window ends there). */
export interface Owner {
  id: string;
  now: Date;
}

export async function resolveOwner(em: EntityManager, identity: ApiKeyIdentity, rawOwner: string): Promise<Owner> {
  const owner = decodeOwner(rawOwner).trim();
  if (!owner) throw notFound('Owner');
  if (identity.kind === 'user') {
    // A user key reads its own user only: compare with what the key's lookup already read
    // (e-mails are stored trimmed and lower-cased), as the queries below would.
    const wanted = owner.toLowerCase();
    const { userId, email, userNow } = identity;
    const named = owner.includes('@') ? email === wanted : email.split('@')[0] === wanted;
    if ((isUuid(owner) && wanted === userId) || named) return { id: userId, now: userNow };
    throw notFound('Owner');
  }
  if (isUuid(owner)) {
    const [byId] = await findUsers(em, 'id', owner.toLowerCase());
    if (byId) return byId;
  }
  const matches = owner.includes('@')
    ? await findUsers(em, 'email', owner.toLowerCase())
    : await findUsers(em, 'local part', owner.toLowerCase());
  if (matches.length > 1) {
    throw new AppError('CONFLICT', 'Several users share this e-mail local part; use the full e-mail or the user id');
  }
  const [found] = matches;
  if (!found) throw notFound('Owner');
  return found;
}

/** At most two matching users (two are enough to know it is ambiguous). */
async function findUsers(em: EntityManager, by: Parameters<typeof selectUsersBy>[1], value: string): Promise<Owner[]> {
  const rows = await selectUsersBy(em, by, value);
  return rows.map((row) => ({ id: row.id, now: new Date(row.now) }));
}
