/** What the router and the domain functions need from the process that hosts them. */
import type { Config, Secrets } from '@sandbank/config';
import type { Orm } from '@sandbank/db';
import type { Logger } from 'pino';
import type { ReadRouting } from './domain/replication/read-routing.ts';
import type { TransactionListCache } from './domain/transactions/transaction-list-cache.ts';
import type { FamilyShares } from './protection/family-shares.ts';
import type { RateLimits } from './protection/rate-limiters.ts';

export interface Deps {
  config: Config;
  secrets: Secrets;
  orm: Orm;
  logger: Logger;
  /** Set by the HTTP host (`buildApp`); without it (direct calls in tests, scripts) nothing is limited. */
  rateLimits?: RateLimits;
  /** Set by the HTTP host (`buildApp`); without it a family's requests are not bounded (protection/family-shares.ts). */
  familyShares?: FamilyShares;
  /** Set by the HTTP host (`buildApp`); without it the history and the pull read every page whole. */
  transactionLists?: TransactionListCache;
  /** Set when `DATABASE_READ_URL` names a replica: where the read-only paths read (domain/replication/read-routing.ts). */
  readRouting?: ReadRouting;
}
