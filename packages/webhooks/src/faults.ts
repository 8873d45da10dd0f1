/**
 * Which of a webhook's faults hit one attempt. Deterministic: each fault's roll is
 * HMAC-SHA256(seed, `eventId:cycle:attempt:kind`) read as a number in [0, 1), so a seed gives the
 * same faults on the same events on every run (and a retry rolls afresh, being another attempt).
 */
import { createHmac } from 'node:crypto';
import type { AttemptFault, WebhookFaults } from '@sandbank/schemas';

export interface AttemptKey {
  eventId: string;
  cycle: number;
  attempt: number;
}

/** A uniform number in [0, 1) from the seed and the attempt; `salt` separates the rolls of one attempt. */
export function faultRoll(seed: string, { eventId, cycle, attempt }: AttemptKey, salt: string): number {
  const mac = createHmac('sha256', seed).update(`${eventId}:${cycle}:${attempt}:${salt}`).digest();
  return mac.readUIntBE(0, 6) / 2 ** 48;
}

export interface FaultPlan {
  /** Counted as this answer whatever the receiver says. */
  failure?: number | 'timeout';
  latencyMs?: number;
  duplicate: boolean;
  /** Hold a first attempt back this long before sending it. */
  holdMs?: number;
  staleSeconds?: number;
}

/** The faults of one attempt; `faults` null (the default) plans none. */
export function planFaults(faults: WebhookFaults | null | undefined, key: AttemptKey): FaultPlan {
  const plan: FaultPlan = { duplicate: false };
  if (!faults) return plan;
  const seed = faults.seed ?? '';
  const hit = (rate: number, kind: string) => rate > 0 && faultRoll(seed, key, kind) < rate;
  if (faults.failure && hit(faults.failure.rate, 'failure')) plan.failure = faults.failure.status;
  if (faults.latency && hit(faults.latency.rate, 'latency')) plan.latencyMs = faults.latency.ms;
  if (faults.duplicate && hit(faults.duplicate.rate, 'duplicate')) plan.duplicate = true;
  // Only a delivery's first try is held: a retry already comes late.
  if (faults.reorder && key.attempt === 1 && hit(faults.reorder.rate, 'reorder')) {
    plan.holdMs = Math.max(1, Math.floor(faultRoll(seed, key, 'reorder-delay') * faults.reorder.windowMs));
  }
  if (faults.staleTimestamp && hit(faults.staleTimestamp.rate, 'staleTimestamp')) {
    plan.staleSeconds = faults.staleTimestamp.ageSeconds;
  }
  return plan;
}

/** The plan as the attempt records it (the hold is recorded by the attempt that follows it). */
export function describeFaults(plan: FaultPlan, heldMs?: number): AttemptFault[] {
  const carried: AttemptFault[] = [];
  if (heldMs !== undefined) carried.push({ kind: 'reorder', ms: heldMs });
  if (plan.latencyMs !== undefined) carried.push({ kind: 'latency', ms: plan.latencyMs });
  if (plan.staleSeconds !== undefined) carried.push({ kind: 'staleTimestamp', ageSeconds: plan.staleSeconds });
  if (plan.duplicate) carried.push({ kind: 'duplicate' });
  if (plan.failure !== undefined) carried.push({ kind: 'failure', status: plan.failure });
  return carried;
}
