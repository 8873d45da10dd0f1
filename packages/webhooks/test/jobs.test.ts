import { describe, expect, it } from 'vitest';
import { DELIVER_WEBHOOK_TASK, deliveryJob, deliveryJobKey, JOB_MAX_ATTEMPTS } from '../src/jobs.ts';

describe('deliveryJob', () => {
  const deliveryId = '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d';
  const userId = '0193a3f4-5c1e-7a2b-9c3d-000000000001';

  it('builds the one job shape every enqueuer uses: task, validated payload, key per delivery, bounded attempts', () => {
    expect(deliveryJob({ deliveryId, userId })).toEqual({
      identifier: DELIVER_WEBHOOK_TASK,
      payload: { deliveryId, attempt: 1, cycle: 1, userId },
      run_at: null,
      max_attempts: JOB_MAX_ATTEMPTS,
      job_key: deliveryJobKey(deliveryId),
      flags: [`user:${userId}`],
    });
    const at = new Date('2026-11-22T12:00:05.000Z');
    expect(deliveryJob({ deliveryId, userId, attempt: 3 }, at)).toMatchObject({
      payload: { attempt: 3 },
      run_at: '2026-11-22T12:00:05.000Z',
    });
  });

  it('refuses a payload its task could not parse', () => {
    expect(() => deliveryJob({ deliveryId: 'not-a-uuid', userId })).toThrow();
    expect(() => deliveryJob({ deliveryId, userId, attempt: 0 })).toThrow();
    expect(() => deliveryJob({ deliveryId, userId, cycle: 0 })).toThrow();
    expect(() => deliveryJob({ deliveryId, userId: 'someone' })).toThrow();
  });
});
