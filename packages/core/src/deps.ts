/** What the router and the domain functions need from the process that hosts them. */
import type { Config, Secrets } from '@sandbank/config';
import type { Orm } from '@sandbank/db';
import type { Logger } from 'pino';
import type { RateLimits } from './protection/rate-limiters.ts';

export interface Deps {
  config: Config;
  secrets: Secrets;
  orm: Orm;
  logger: Logger;
  /** Set by the HTTP host (`buildApp`); without it (direct calls in tests, scripts) nothing is limited. */
  rateLimits?: RateLimits;
}
