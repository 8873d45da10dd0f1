/**
 * A family's share of the process (docs/reference/limits.md, "Per family"): at most
 * `LIMIT_FAMILY_REQUESTS` requests of one user and its child worlds are served at once per API
 * process; the next ones wait in memory, in arrival order, holding no database connection, and are
 * refused with 429 RATE_LIMITED after `waitMs`. A request holds at most one pooled connection at a
 * time (two with a world lock, advisory-lock.ts), so one family never holds the whole pool and every
 * other tenant's requests find a connection.
 *
 * Every authenticated path takes its share right after authentication: the procedures (trpc.ts) and
 * each face's request wrapper.
 */
import type { EntityManager } from '@sandbank/db';
import { familyOf } from '../domain/tenancy/family.ts';
import { AppError } from '../errors.ts';

interface Family {
  serving: number;
  waiting: Array<() => void>;
}

export interface FamilyShares {
  /** Runs `work` within the family's share of the process; RATE_LIMITED when none frees up in time. */
  run<T>(em: EntityManager, userId: string, work: () => Promise<T>): Promise<T>;
}

export function familyShares({ limit, waitMs }: { limit: number; waitMs: number }): FamilyShares {
  const families = new Map<string, Family>();

  async function enter(familyId: string): Promise<void> {
    const family = families.get(familyId) ?? { serving: 0, waiting: [] };
    families.set(familyId, family);
    if (family.serving < limit && family.waiting.length === 0) {
      family.serving++;
      return;
    }
    await new Promise<void>((resolve, reject) => {
      const admit = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        const at = family.waiting.indexOf(admit);
        if (at >= 0) family.waiting.splice(at, 1);
        reject(
          new AppError('RATE_LIMITED', `Your worlds have ${limit} requests in progress; retry when one ends`, {
            retryAfterSeconds: 1,
          }),
        );
      }, waitMs);
      family.waiting.push(admit);
    });
  }

  function leave(familyId: string): void {
    const family = families.get(familyId);
    if (!family) return;
    const next = family.waiting.shift();
    // The place goes straight to the next in line: `serving` stays as it is.
    if (next) next();
    else if (--family.serving === 0) families.delete(familyId);
  }

  return {
    async run(em, userId, work) {
      const familyId = await familyOf(em, userId);
      await enter(familyId);
      try {
        return await work();
      } finally {
        leave(familyId);
      }
    },
  };
}

/** `work` within the user's family share when the host keeps shares (`deps.familyShares`), else at once. */
export function withFamilyShare<T>(
  deps: { familyShares?: FamilyShares | undefined },
  em: EntityManager,
  userId: string,
  work: () => Promise<T>,
): Promise<T> {
  return deps.familyShares ? deps.familyShares.run(em, userId, work) : work();
}
