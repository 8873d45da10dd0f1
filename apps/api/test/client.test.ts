/**
 * `@sandbank/client` against the real server: the tRPC and REST clients share one session,
 * sign in, call protected endpoints, refresh a stale access token once (even with calls in
 * parallel), and sign out; `verifySignature` checks a delivery signed like the worker signs.
 */
import { createRestClient, createSession, type Tokens, verifySignature } from '@sandbank/client';
import { createTrpcClient } from '@sandbank/client/trpc';
import { signatureHeaders } from '@sandbank/webhooks';
import { TRPCClientError } from '@trpc/client';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

describe('@sandbank/client', () => {
  it('runs a full flow with the tRPC and REST clients on one session', { timeout: 30_000 }, async () => {
    const refreshCalls: string[] = [];
    const saved: (Tokens | undefined)[] = [];
    const session = createSession({
      baseUrl: `${app.url}/`,
      onTokens: (tokens) => saved.push(tokens),
      fetch: (input, init) => {
        const url = input instanceof Request ? input.url : String(input);
        if (url.endsWith('/v1/auth/refresh')) refreshCalls.push(url);
        return fetch(input, init);
      },
    });
    const trpc = createTrpcClient(session);
    const rest = createRestClient(session);
    // The server refuses a stale access token exactly like an expired one (401 UNAUTHENTICATED).
    const staleAccessToken = () => {
      const tokens = session.tokens();
      if (tokens) session.setTokens({ ...tokens, accessToken: 'stale.access.token' });
    };

    const registered = await trpc.auth.register.mutate({ email: 'Client.Flow@example.com', password: 'password-123' });
    session.setTokens(registered.data);
    expect((await trpc.auth.me.query()).data.email).toBe('client.flow@example.com');
    const me = await rest.GET('/v1/auth/me');
    expect(me.response.status).toBe(200);
    expect(me.data?.data.id).toBe(registered.data.user.id);

    // The ledger through both clients: an account over tRPC, a simulation and the history over REST.
    const account = await trpc.accounts.createAccount.mutate({ name: 'Everyday' });
    const simulated = await rest.POST('/v1/simulations/transaction', {
      body: { accountId: account.data.id, amount: 850_000, description: 'Salary' },
    });
    expect(simulated.response.status).toBe(201);
    expect(simulated.data?.data.balance).toBe(850_000);
    const history = await rest.GET('/v1/accounts/{id}/transactions', { params: { path: { id: account.data.id } } });
    expect(history.data?.data.map((transaction) => transaction.description)).toEqual(['Salary']);
    const notMine = await rest.GET('/v1/accounts/{id}', { params: { path: { id: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d' } } });
    expect(notMine.error?.code).toBe('NOT_FOUND');

    // The pull endpoint with an API key: a call's own Authorization header is kept as it is.
    const issued = await rest.POST('/v1/api-keys', { body: { name: 'budget-app' } });
    const pulled = await rest.GET('/api/owner/{owner}/transactions', {
      params: { path: { owner: 'client.flow' } },
      headers: { authorization: `Bearer ${issued.data?.data.key}` },
    });
    expect(pulled.data?.data).toEqual(history.data?.data);

    // The access token is stale: the next call refreshes once and goes through.
    staleAccessToken();
    const before = session.tokens();
    expect((await rest.GET('/v1/auth/me')).data?.data.email).toBe('client.flow@example.com');
    expect(refreshCalls).toHaveLength(1);
    expect(session.tokens()?.refreshToken).not.toBe(before?.refreshToken);
    expect(saved.at(-1)).toEqual(session.tokens());

    // Stale again, five calls at once: still one refresh (a second would revoke the session).
    staleAccessToken();
    const results = await Promise.all([
      trpc.auth.me.query(),
      trpc.auth.me.query(),
      rest.GET('/v1/auth/me').then((res) => res.data),
      rest.GET('/v1/auth/me').then((res) => res.data),
      rest
        .POST('/v1/auth/login', { body: { email: 'client.flow@example.com', password: 'password-123' } })
        .then((res) => res.data),
    ]);
    // Each call answered as the user: `me` four times, then the login's user.
    const emails = results.map((result) => {
      const data = result?.data as { email?: string; user?: { email: string } } | undefined;
      return data?.email ?? data?.user?.email;
    });
    expect(emails).toEqual(Array(5).fill('client.flow@example.com'));
    expect(refreshCalls).toHaveLength(2);

    // Wrong credentials are an answer, not a reason to refresh.
    const wrong = await rest.POST('/v1/auth/login', { body: { email: 'client.flow@example.com', password: 'wrong-password' } });
    expect(wrong.response.status).toBe(401);
    expect(wrong.error?.code).toBe('INVALID_CREDENTIALS');
    expect(refreshCalls).toHaveLength(2);

    // Sign out: the refresh token dies with the session, so the client drops its tokens.
    expect((await rest.POST('/v1/auth/logout', { body: {} })).data?.data.revoked).toBe(true);
    staleAccessToken();
    const error = await trpc.auth.me.query().catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TRPCClientError);
    expect((error as TRPCClientError<never>).data).toMatchObject({ code: 'UNAUTHENTICATED' });
    expect(session.tokens()).toBeUndefined();
    expect(saved.at(-1)).toBeUndefined();
  });

  it('re-exports verifySignature for webhook receivers', () => {
    const body = JSON.stringify({ id: 'evt_1', type: 'transaction.created' });
    const headers = signatureHeaders('whsec-client-test', 'evt_1', body);
    expect(verifySignature(headers, body, 'whsec-client-test')).toBe(true);
    expect(verifySignature(headers, `${body} `, 'whsec-client-test')).toBe(false);
  });

  it('reads a whsec_ secret as the standardwebhooks package does: the base64 is the key', () => {
    const secret = `whsec_${Buffer.from('a key of twenty-four byt').toString('base64')}`;
    const body = JSON.stringify({ id: 'evt_2', type: 'transaction.created' });
    const now = new Date();
    const headers = {
      'webhook-id': 'evt_2',
      'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
      'webhook-signature': new Webhook(secret).sign('evt_2', now, body),
    };
    expect(verifySignature(headers, body, secret)).toBe(true);
    // The same string's UTF-8 bytes are another key.
    const raw = { ...headers, 'webhook-signature': new Webhook(secret, { format: 'raw' }).sign('evt_2', now, body) };
    expect(verifySignature(raw, body, secret)).toBe(false);
  });
});
