/**
 * Fairness between users inside one worker: at most `perUser` delivery attempts of one user in
 * flight. A receiver that never answers holds its slot for the whole timeout (10 s), so without a
 * cap one user's dead endpoints fill every slot and everyone else's deliveries wait behind them.
 *
 * Two halves, both synchronous (JavaScript runs one of them at a time, so a check and its take
 * cannot interleave):
 * - `forbiddenFlags()` is graphile-worker's hook before each fetch: the flags of users at their
 *   cap, so the fetch skips their jobs and takes the next user's (the jobs carry `user:<id>`).
 * - `tryTake(userId)` is the task's first step. Idle workers fetch concurrently with the same
 *   forbidden list, so a burst can hand one user more jobs than its cap; the extra ones find no
 *   slot and are put back (`deliver-webhook` re-enqueues them) instead of waiting on a slot.
 */
import { deliveryUserFlag } from '@sandbank/webhooks';

export class UserSlots {
  private readonly inFlight = new Map<string, number>();
  private readonly perUser: number;

  constructor(perUser: number) {
    this.perUser = perUser;
  }

  tryTake(userId: string): boolean {
    const taken = this.inFlight.get(userId) ?? 0;
    if (taken >= this.perUser) return false;
    this.inFlight.set(userId, taken + 1);
    return true;
  }

  release(userId: string): void {
    const taken = this.inFlight.get(userId) ?? 0;
    if (taken <= 1) this.inFlight.delete(userId);
    else this.inFlight.set(userId, taken - 1);
  }

  /** The flags of the users whose slots are all taken: their jobs wait for a slot to free. */
  forbiddenFlags(): string[] {
    const full: string[] = [];
    for (const [userId, taken] of this.inFlight) if (taken >= this.perUser) full.push(deliveryUserFlag(userId));
    return full;
  }
}
