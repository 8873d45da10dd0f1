/** The clock and schedule calls of a user's world, shared by clock.test.ts and schedules.test.ts. */
import type { ScheduleRun } from '@sandbank/schemas';
import { expect } from 'vitest';
import type { TestApp, TestUser } from './helpers.ts';

export interface HistoryRow {
  externalTxnId: string;
  amount: number;
  date: string;
  status: string;
  postedAt: string | null;
}

/** `app` is read at each call (test files start it in beforeAll). */
export function worldCalls(app: () => TestApp) {
  return {
    clock: async (user: TestUser) => (await app().call('GET', '/v1/clock', { token: user.accessToken })).body.data,
    advance: (user: TestUser, body: Record<string, unknown>) =>
      app().call('POST', '/v1/clock/advance', { token: user.accessToken, body }),
    schedule: (user: TestUser, accountId: string, body: Record<string, unknown>) =>
      app().call('POST', `/v1/accounts/${accountId}/schedules`, { token: user.accessToken, body }),
    runs: async (user: TestUser, scheduleId: string): Promise<ScheduleRun[]> =>
      (await app().call('GET', `/v1/schedules/${scheduleId}/runs?limit=200`, { token: user.accessToken })).body.data,
    /** Every transaction of the account, newest first, in every status. */
    async history(user: TestUser, accountId: string): Promise<HistoryRow[]> {
      const res = await app().call('GET', `/v1/accounts/${accountId}/transactions?limit=200&status=all`, {
        token: user.accessToken,
      });
      expect(res.status).toBe(200);
      return res.body.data;
    },
  };
}
