/** Calls of the scenario endpoints, shared by the scenario test files. */
import { expect } from 'vitest';
import type { TestApp, TestUser } from './helpers.ts';

export const apply = (target: TestApp, user: TestUser, body: unknown) =>
  target.call('POST', '/v1/scenarios/apply', { token: user.accessToken, body });
export const exported = async (target: TestApp, user: TestUser) => {
  const res = await target.call('GET', '/v1/scenarios/export', { token: user.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
};
/** An export without what differs between worlds: schedule ids inside externalTxnIds, and the export instant. */
export const comparable = (document: object) =>
  JSON.parse(JSON.stringify({ ...document, asOf: undefined }).replace(/sch_[0-9a-f-]{36}_/g, 'sch_<id>_'));

/** A scenario of one account (key `a`) holding only these schedules. */
export const scheduledScenario = (schedules: Record<string, unknown>[]) => ({
  version: 1,
  seed: 1,
  accounts: [{ key: 'a', name: 'S', schedules }],
});
