/** Registration, login and the current user. */
import { type EntityManager, UniqueConstraintViolationException, UserEntity } from '@sandbank/db';
import type { Deps } from '../../deps.ts';
import { AppError, worldGone } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import { issueSession, type Session } from './sessions.ts';

type AuthDeps = Pick<Deps, 'config' | 'secrets'>;

export interface AuthResult {
  user: UserEntity;
  session: Session;
}

export async function registerUser(
  em: EntityManager,
  deps: AuthDeps,
  input: { email: string; password: string },
): Promise<AuthResult> {
  const passwordHash = await hashPassword(input.password);
  const user = em.create(UserEntity, { id: uuidv7(), email: input.email, passwordHash });
  try {
    await em.flush();
  } catch (error) {
    if (error instanceof UniqueConstraintViolationException) {
      throw new AppError('EMAIL_TAKEN', 'An account with this e-mail already exists');
    }
    throw error;
  }
  return { user, session: await issueSession(em, deps, { userId: user.id }) };
}

export async function login(em: EntityManager, deps: AuthDeps, input: { email: string; password: string }): Promise<AuthResult> {
  const user = await em.findOne(UserEntity, { email: input.email });
  const valid = await verifyPassword(user?.passwordHash, input.password);
  if (!user || !valid) throw new AppError('INVALID_CREDENTIALS', 'The e-mail or password is wrong');
  return { user, session: await issueSession(em, deps, { userId: user.id }) };
}

export async function getUser(em: EntityManager, userId: string): Promise<UserEntity> {
  const user = await em.findOne(UserEntity, { id: userId });
  if (!user) throw worldGone();
  return user;
}

/** Confirms a password of a signed-in user (e.g. to close an account): 403 INVALID_PASSWORD. */
export async function confirmPassword(em: EntityManager, userId: string, password: string): Promise<void> {
  const user = await getUser(em, userId);
  if (!(await verifyPassword(user.passwordHash, password))) {
    throw new AppError('INVALID_PASSWORD', 'The password is wrong');
  }
}
