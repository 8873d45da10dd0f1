/**
 * Accounts: open, read, close. Balances are never written here: only the simulation statement
 * changes them. Closing is one conditional UPDATE, so it cannot interleave with a simulation.
 */
import { AccountEntity, type EntityManager, UniqueConstraintViolationException } from '@sandbank/db';
import type { Currency } from '@sandbank/schemas';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { confirmPassword } from '../auth/users.ts';
import { userNow } from '../clock/clock.ts';
import { checkUserLimit } from '../limits/per-user-limits.ts';

export async function createAccount(
  em: EntityManager,
  {
    userId,
    name,
    currency = 'PLN',
    cardFxMargin = '0.02',
    limit,
  }: {
    userId: string;
    name: string;
    currency?: Currency | undefined;
    /** A fraction 0 … 0.1 as decimal text (the schema checks it; the database too). */
    cardFxMargin?: string | undefined;
    /** LIMIT_OPEN_ACCOUNTS */
    limit: number;
  },
): Promise<AccountEntity> {
  return em.transactional(async (tx) => {
    await checkUserLimit(tx, { userId, resource: 'openAccounts', limit });
    const account = tx.create(AccountEntity, {
      id: uuidv7(),
      user: userId,
      name,
      currency,
      cardFxMargin,
      balance: 0,
      status: 'open',
      createdAt: await userNow(tx, userId), // the world's time, as everything in it
    });
    try {
      await tx.flush();
    } catch (error) {
      // The unique partial index on (user_id, lower(name)) where status = 'open' decides, race-free.
      if (error instanceof UniqueConstraintViolationException) {
        throw new AppError('ACCOUNT_NAME_TAKEN', 'You already have an open account with this name');
      }
      throw error;
    }
    return account;
  });
}

export async function listAccounts(em: EntityManager, { userId, page, limit }: { userId: string; page: number; limit: number }) {
  const [items, total] = await em.findAndCount(
    AccountEntity,
    { user: userId },
    { orderBy: { createdAt: 'asc', id: 'asc' }, limit, offset: (page - 1) * limit },
  );
  return { items, total };
}

/** The caller's account; another user's account is 404 like a missing one (no existence leak). */
export async function getOwnedAccount(
  em: EntityManager,
  { userId, accountId, refresh = false }: { userId: string; accountId: string; refresh?: boolean },
): Promise<AccountEntity> {
  const account = await em.findOne(AccountEntity, { id: accountId, user: userId }, { refresh });
  if (!account) throw notFound('Account');
  return account;
}

export interface CloseAccountParams {
  userId: string;
  accountId: string;
  /** Must equal the account's name (a typed confirmation, as when deleting a repository). */
  name: string;
  password: string;
}

export async function closeAccount(
  em: EntityManager,
  { userId, accountId, name, password }: CloseAccountParams,
): Promise<AccountEntity> {
  const account = await getOwnedAccount(em, { userId, accountId });
  if (account.status === 'closed') throw accountClosed();
  if (name !== account.name) {
    throw new AppError('CONFIRMATION_MISMATCH', 'The name does not match the account', {
      details: [{ path: 'name', message: 'Must equal the account name' }],
    });
  }
  await confirmPassword(em, userId, password);
  // Conditional on the state a concurrent simulation could change: a credit that lands first makes
  // this match nothing (409 BALANCE_NOT_ZERO); a simulation that comes after finds it closed.
  const closed = await em.nativeUpdate(
    AccountEntity,
    { id: accountId, user: userId, status: 'open', balance: 0 },
    { status: 'closed', closedAt: await userNow(em, userId) },
  );
  const current = await getOwnedAccount(em, { userId, accountId, refresh: true });
  if (closed === 1) return current;
  if (current.status === 'closed') throw accountClosed();
  throw new AppError('BALANCE_NOT_ZERO', 'Only an account with a zero balance can be closed');
}

export const accountClosed = () => new AppError('ACCOUNT_CLOSED', 'The account is closed');
