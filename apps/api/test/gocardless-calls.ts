/**
 * Calls shared by the GoCardless face's tests: a user's credentials (an API key's id and key), an
 * official `nordigen-node` client pointed at the test server, a requisition decided by the owner,
 * and a clock advance.
 */
import NordigenClient from 'nordigen-node';
import { expect } from 'vitest';
import type { Loose, TestApp, TestUser } from './helpers.ts';

export const SANDBOX = 'SANDBOXFINANCE_SFIN0000';

export function gocardlessCalls(appOf: () => TestApp) {
  const baseUrl = () => `${appOf().url}/gocardless/api/v2`;

  /** `secret_id` and `secret_key` of a new API key of the user. */
  async function secrets(user: TestUser) {
    const res = await appOf().call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'GoCardless app' } });
    expect(res.status).toBe(201);
    return { secretId: res.body.data.id as string, secretKey: res.body.data.key as string };
  }

  /** The official client, unchanged but for its base URL, with a token already generated. */
  async function client(user: TestUser) {
    const nordigen = new NordigenClient({ ...(await secrets(user)), baseUrl: baseUrl() });
    await nordigen.generateToken();
    return nordigen;
  }

  const advance = async (user: TestUser, by: string) =>
    expect((await appOf().call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by } })).status).toBe(200);

  const decide = (user: TestUser, requisitionId: string, body: Record<string, unknown>) =>
    appOf().call('POST', `/v1/gocardless/requisitions/${requisitionId}/decision`, { token: user.accessToken, body });

  /** A GoCardless error as the client sees it: axios rejects with the response. */
  async function refusal(promise: Promise<unknown>): Promise<{ status: number; body: Loose; headers: Record<string, string> }> {
    try {
      await promise;
    } catch (error) {
      const response = (error as { response?: { status: number; data: unknown; headers: Record<string, string> } }).response;
      if (!response) throw error;
      return { status: response.status, body: response.data, headers: response.headers };
    }
    throw new Error('expected the call to be refused');
  }

  return { baseUrl, secrets, client, advance, decide, refusal };
}
