import type { UserEntity } from '@sandbank/db';
import type { User } from '@sandbank/schemas';

export const toUser = (user: UserEntity): User => ({
  id: user.id,
  email: user.email,
  createdAt: user.createdAt.toISOString(),
});
