/**
 * Calls of the lifecycle endpoints, shared by the lifecycle test files: a funded account, the
 * transitions, a pending card payment, the events of a transaction.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { expect } from 'vitest';
import type { TestApp, TestUser } from './helpers.ts';

/** The calls against the app `appOf` returns (each file starts its own in beforeAll). */
export function lifecycleCalls(appOf: () => TestApp) {
  /** A user with an account funded with 100.00 PLN. */
  async function funded(): Promise<{ user: TestUser; accountId: string }> {
    const user = await appOf().createUser();
    const accountId = await openAccount(appOf(), user);
    expect((await simulate(appOf(), user, { accountId, amount: 100_00 })).status).toBe(201);
    return { user, accountId };
  }

  const act = (user: TestUser, id: string, verb: 'post' | 'void' | 'reverse', body: Record<string, unknown> = {}) =>
    appOf().call('POST', `/v1/transactions/${id}/${verb}`, { token: user.accessToken, body });
  const patch = (user: TestUser, id: string, body: Record<string, unknown>) =>
    appOf().call('PATCH', `/v1/transactions/${id}`, { token: user.accessToken, body });
  const account = async (user: TestUser, accountId: string) =>
    (await appOf().call('GET', `/v1/accounts/${accountId}`, { token: user.accessToken })).body.data;

  async function eventsOf(transactionId: string) {
    const { rows } = await appOf().db.query(
      `select type, payload from events where payload->'transaction'->>'id' = $1 order by created_at, id`,
      [transactionId],
    );
    return rows as { type: string; payload: Record<string, unknown> }[];
  }

  async function pendingCard(user: TestUser, accountId: string, amount = -25_00, extra: Record<string, unknown> = {}) {
    const res = await simulate(appOf(), user, {
      accountId,
      amount,
      status: 'pending',
      merchant: 'Żabka',
      category: 'groceries',
      ...extra,
    });
    expect(res.status).toBe(201);
    return res.body.data.transaction as { id: string; version: number };
  }

  return { funded, act, patch, account, eventsOf, pendingCard };
}
