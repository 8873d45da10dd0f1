/** The delivery decision as a pure rule: what follows an attempt, without a worker or a receiver. */
import { describe, expect, it } from 'vitest';
import { decide } from '../src/tasks/deliver-webhook.ts';

const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);
const SCHEDULE = [5, 300, 1800];
const failure = (statusCode: number | null, error = statusCode ? `HTTP ${statusCode}` : 'timeout after 10000 ms') => ({
  statusCode,
  durationMs: 12,
  error,
});

describe('decide', () => {
  it('ends a delivery on a 2xx answer', () => {
    expect(decide({ statusCode: 204, durationMs: 3, error: null }, 1, SCHEDULE, NOW)).toEqual({
      outcome: 'succeeded',
      nextAttemptAt: null,
      nextJobAttempt: null,
      disableReason: null,
    });
  });

  it('schedules attempt n + 1 after the n-th delay of the schedule, for errors and timeouts alike', () => {
    expect(decide(failure(500), 1, SCHEDULE, NOW)).toEqual({
      outcome: 'pending',
      nextAttemptAt: new Date(NOW + 5_000),
      nextJobAttempt: 2,
      disableReason: null,
    });
    expect(decide(failure(null), 3, SCHEDULE, NOW)).toMatchObject({
      nextAttemptAt: new Date(NOW + 1_800_000),
      nextJobAttempt: 4,
    });
  });

  it('fails the delivery once the schedule is used up', () => {
    expect(decide(failure(503), SCHEDULE.length + 1, SCHEDULE, NOW)).toEqual({
      outcome: 'failed',
      nextAttemptAt: null,
      nextJobAttempt: null,
      disableReason: null,
    });
  });

  it('stops at once and disables the webhook on 410 Gone, whatever the schedule has left', () => {
    expect(decide(failure(410), 1, SCHEDULE, NOW)).toMatchObject({
      outcome: 'failed',
      disableReason: expect.stringContaining('410'),
    });
  });
});
