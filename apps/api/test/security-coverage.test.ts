/**
 * Security coverage by construction: this file walks EVERY procedure of the router (from its
 * metadata) and runs the auth cases against each one. A new procedure is covered the moment it is
 * added to a router; one that forgets its auth middleware fails here.
 *
 * - user-token procedures (the default, `protect` not false): no token, a malformed token, a
 *   tampered one, an expired one and an API key must all be 401 UNAUTHENTICATED;
 * - API-key procedures (`apiKeyProcedure`): no key, an unknown key, a revoked key and a user
 *   access token must all be 401 UNAUTHENTICATED;
 * - procedures of a world's owner by either credential (`worldOwnerProcedure`): no credential, a
 *   malformed, tampered or expired token, an unknown key and a revoked key must all be 401;
 * - every path parameter that names a resource is filled with a resource of the owner, and a
 *   stranger (another user, or another user's key) must get 404 NOT_FOUND, never 403.
 *
 * Path parameters are resolved through `RESOURCES`, keyed by the path segment before them
 * (`accounts/{id}`): a new kind of resource fails this test until it gets a fixture there.
 */
import { ibanOf, type Meta, procedureMetas } from '@sandbank/core';
import { importPKCS8, SignJWT } from 'jose';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pain001 } from '../../../packages/core/test/payment-files/fixtures.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { authSampleInputs } from './security-samples.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

/** Procedures anyone may call: adding one here is a deliberate, reviewed decision. */
const PUBLIC_PROCEDURES = new Set([
  'auth.register',
  'auth.login',
  'auth.refresh',
  'scenarios.getScenarioSchema',
  'currencies.listCurrencies',
]);

type Ids = Record<string, string>;
/** Creates the owner's resource named by `<segment>/{param}` (earlier params of the path are in `ids`). */
type ResourceFixture = (owner: TestUser, ids: Ids) => Promise<string>;

const RESOURCES: Record<string, ResourceFixture> = {
  'accounts/{id}': async (owner) => (await post(owner, '/v1/accounts', { name: `Acc ${uuidv7()}` })).id,
  'webhooks/{id}': async (owner) =>
    (
      await post(owner, '/v1/webhooks', {
        url: 'http://127.0.0.1:9/hooks',
        secret: 'whsec-test-0123456789abcdef',
        events: ['transaction.created'],
        clientId: 'security',
      })
    ).id,
  'deliveries/{deliveryId}': async (owner, ids) => {
    const eventId = await ownedEvent(owner);
    const deliveryId = uuidv7();
    await app.db.query(`insert into webhook_deliveries (id, webhook_id, event_id, status) values ($1, $2, $3, 'failed')`, [
      deliveryId,
      ids.id,
      eventId,
    ]);
    return deliveryId;
  },
  'api-keys/{id}': async (owner) => (await post(owner, '/v1/api-keys', { name: 'security' })).id,
  'requisitions/{id}': async (owner) => {
    const key = (await post(owner, '/v1/api-keys', { name: 'security' })) as { id: string; key: string };
    const face = async (path: string, body: unknown, token?: string) =>
      (await fetch(`${app.url}/gocardless/api/v2${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
        body: JSON.stringify(body),
      }).then((res) => res.json())) as { access: string; id: string };
    const { access } = await face('/token/new/', { secret_id: key.id, secret_key: key.key });
    // An institution that waits for the owner's consent, so the requisition stays CR.
    return (
      await face('/requisitions/', { redirect: 'https://app.example/cb', institution_id: 'SANDBANK_DATY_SNDBPLP1' }, access)
    ).id;
  },
  'applications/{id}': async (owner) =>
    (await post(owner, '/v1/enablebanking/applications', { name: 'security', redirectUrls: ['https://app.example/cb'] })).id,
  'authorizations/{id}': async (owner) => {
    const application = (await post(owner, '/v1/enablebanking/applications', {
      name: 'security',
      redirectUrls: ['https://app.example/cb'],
    })) as { id: string; privateKey: string };
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: application.id })
      .setIssuer('enablebanking.com')
      .setAudience('api.enablebanking.com')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(await importPKCS8(application.privateKey, 'RS256'));
    // An ASPSP that waits for the owner's decision, so the authorization stays pending.
    const res = await fetch(`${app.url}/enablebanking/auth`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({
        access: { valid_until: new Date(Date.now() + 86_400_000).toISOString() },
        aspsp: { name: 'Sandbank', country: 'PL' },
        state: 'security',
        redirect_url: 'https://app.example/cb',
      }),
    });
    if (res.status !== 200) throw new Error(`fixture POST /enablebanking/auth answered ${res.status}`);
    return ((await res.json()) as { authorization_id: string }).authorization_id;
  },
  'sessions/{id}': async (owner) => {
    const application = (await post(owner, '/v1/enablebanking/applications', {
      name: 'security',
      redirectUrls: ['https://app.example/cb'],
    })) as { id: string; privateKey: string };
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: application.id })
      .setIssuer('enablebanking.com')
      .setAudience('api.enablebanking.com')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(await importPKCS8(application.privateKey, 'RS256'));
    const face = async (path: string, body: unknown) => {
      const res = await fetch(`${app.url}/enablebanking${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
        body: JSON.stringify(body),
      });
      if (res.status !== 200) throw new Error(`fixture POST /enablebanking${path} answered ${res.status}`);
      return (await res.json()) as Record<string, string>;
    };
    // The sandbox ASPSP links at once: its url carries the code straight back.
    const started = await face('/auth', {
      access: { valid_until: new Date(Date.now() + 86_400_000).toISOString() },
      aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
      state: 'security',
      redirect_url: 'https://app.example/cb',
    });
    const code = new URL(started.url ?? '').searchParams.get('code');
    return (await face('/sessions', { code }))['session_id'] as string;
  },
  'payments/{paymentId}': async (owner) => {
    const application = (await post(owner, '/v1/enablebanking/applications', {
      name: 'security',
      redirectUrls: ['https://app.example/cb'],
    })) as { id: string; privateKey: string };
    const now = Math.floor(Date.now() / 1000);
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'RS256', kid: application.id })
      .setIssuer('enablebanking.com')
      .setAudience('api.enablebanking.com')
      .setIssuedAt(now)
      .setExpirationTime(now + 600)
      .sign(await importPKCS8(application.privateKey, 'RS256'));
    // An Enable Banking payment at an ASPSP that waits for the owner, so it stays pending.
    const res = await fetch(`${app.url}/enablebanking/payments`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${jwt}` },
      body: JSON.stringify({
        payment_type: 'DOMESTIC',
        payment_request: {
          credit_transfer_transaction: [
            {
              instructed_amount: { currency: 'PLN', amount: '1.00' },
              beneficiary: {
                creditor: { name: 'Security' },
                creditor_account: { identification: 'PL61109010140000071219812874', scheme_name: 'IBAN' },
              },
            },
          ],
        },
        aspsp: { name: 'Sandbank', country: 'PL' },
        state: 'security',
        redirect_url: 'https://app.example/cb',
      }),
    });
    if (res.status !== 200) throw new Error(`fixture POST /enablebanking/payments answered ${res.status}`);
    return ((await res.json()) as { payment_id: string }).payment_id;
  },
  'owner/{owner}': async (owner) => owner.email,
  'items/{id}': async (owner) => {
    const key = (await post(owner, '/v1/api-keys', { name: 'security' })) as { id: string; key: string };
    const res = await fetch(`${app.url}/plaid/sandbox/public_token/create`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_id: owner.id,
        secret: key.key,
        institution_id: 'ins_sandbank',
        initial_products: ['transactions'],
      }),
    });
    if (res.status !== 200) throw new Error(`fixture Plaid public token answered ${res.status}`);
    const { rows } = await app.db.query<{ id: string }>(
      'select id from plaid_items where user_id = $1 order by id desc limit 1',
      [owner.id],
    );
    return rows[0]!.id;
  },
  'transactions/{id}': async (owner) => (await ownedTransaction(owner)).id,
  'payments/{id}': async (owner) => {
    const from = await post(owner, '/v1/accounts', { name: `Acc ${uuidv7()}` });
    const to = await post(owner, '/v1/accounts', { name: `Acc ${uuidv7()}` });
    // Unfunded: a payment all the same (RJCT/AM04), which is all ownership needs.
    return (await post(owner, '/v1/payments', { fromAccountId: from.id, to: { accountId: to.id }, amount: 1 })).id;
  },
  'events/{id}': async (owner) => ownedEvent(owner),
  'payment-files/{id}': async (owner) => {
    const account = await post(owner, '/v1/accounts', { name: `Acc ${uuidv7()}` });
    const xml = pain001({
      version: '09',
      messageId: 'SECURITY-1',
      createdAt: '2026-11-30T09:15:00+01:00',
      initiatingParty: 'Security',
      blocks: [
        {
          id: 'B1',
          debtorIban: ibanOf(account.id),
          date: '2026-11-30',
          transactions: [{ endToEndId: 'E2E-1', amount: '1.00', currency: 'PLN' }],
        },
      ],
    });
    const res = await fetch(`${app.url}/v1/payment-files`, {
      method: 'POST',
      headers: { 'content-type': 'application/xml', authorization: `Bearer ${owner.accessToken}` },
      body: xml,
    });
    if (res.status !== 201) throw new Error(`fixture POST /v1/payment-files answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { data: { id: string } }).data.id;
  },
  'snapshots/{id}': async (owner) => (await post(owner, '/v1/sandbox/snapshots', { name: 'security' })).id,
  'worlds/{id}': async (owner) => {
    const snapshot = await post(owner, '/v1/sandbox/snapshots', { name: 'security' });
    const res = await app.call('POST', '/v1/worlds', { token: owner.accessToken, body: { snapshotId: snapshot.id } });
    if (res.status !== 201) throw new Error(`fixture POST /v1/worlds answered ${res.status}: ${JSON.stringify(res.body)}`);
    return res.body.data.world.id;
  },
  'schedules/{id}': async (owner) => {
    const account = await post(owner, '/v1/accounts', { name: `Acc ${uuidv7()}` });
    return (
      await post(owner, `/v1/accounts/${account.id}/schedules`, {
        amount: 100,
        description: 'Pocket money',
        rrule: 'FREQ=WEEKLY',
      })
    ).id;
  },
};

async function post(owner: TestUser, path: string, body: unknown): Promise<{ id: string }> {
  const res = await app.call('POST', path, { token: owner.accessToken, body });
  if (res.status !== 201) throw new Error(`fixture POST ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body.data.id ? res.body.data : res.body.data.transaction;
}

async function ownedTransaction(owner: TestUser): Promise<{ id: string; accountId: string }> {
  const account = await post(owner, '/v1/accounts', { name: `Acc ${uuidv7()}` });
  return post(owner, '/v1/simulations/transaction', { accountId: account.id, amount: 1000 }) as Promise<{
    id: string;
    accountId: string;
  }>;
}

async function ownedEvent(owner: TestUser): Promise<string> {
  await ownedTransaction(owner);
  const { rows } = await app.db.query<{ id: string }>(
    `select id from events where user_id = $1 order by created_at desc limit 1`,
    [owner.id],
  );
  return rows[0]!.id;
}

async function apiKeyOf(user: TestUser): Promise<{ id: string; key: string }> {
  const res = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'security' } });
  return res.body.data;
}

/** Fills the path's parameters with resources of `owner`, in order. */
async function resolvePath(template: string, owner: TestUser): Promise<string> {
  const ids: Ids = {};
  let path = template;
  for (const match of template.matchAll(/([^/]+)\/\{(\w+)\}/g)) {
    const fixture = RESOURCES[`${match[1]}/{${match[2]}}`];
    if (!fixture) throw new Error(`no fixture for "${match[0]}" in ${template}: add one to RESOURCES`);
    ids[match[2]!] = await fixture(owner, ids);
    path = path.replace(`{${match[2]}}`, encodeURIComponent(ids[match[2]!]!));
  }
  return path;
}

async function expiredTokenOf(user: TestUser): Promise<string> {
  const secret = new TextEncoder().encode(app.env.JWT_SECRET);
  const past = Math.floor(Date.now() / 1000) - 3600;
  return new SignJWT({ sid: uuidv7() })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(user.id)
    .setIssuer(app.deps.config.auth.issuer)
    .setAudience(app.deps.config.auth.audience)
    .setIssuedAt(past - 900)
    .setJti(uuidv7())
    .setExpirationTime(past)
    .sign(secret);
}

/** A body that passes validation, so ownership (not the input) decides; methods with bodies need JSON. */
function bodyFor(op: Operation): unknown {
  return authSampleInputs[op.name] ?? (['POST', 'PUT', 'PATCH'].includes(op.method) ? {} : undefined);
}

interface Operation {
  name: string;
  method: string;
  path: string;
  auth: 'public' | 'user' | 'apiKey' | 'userOrApiKey';
}

function operations(): Operation[] {
  return [...procedureMetas()]
    .filter((entry): entry is [string, Meta & { openapi: NonNullable<Meta['openapi']> }] => Boolean(entry[1].openapi))
    .map(([name, meta]) => ({
      name,
      method: meta.openapi.method,
      path: meta.openapi.path,
      auth: meta.openapi.protect === false ? 'public' : (meta.auth ?? 'user'),
    }));
}

/**
 * Routes served by Express rather than a procedure (their bodies or answers are not JSON), with a
 * user's access token: the same cases as procedures. A path's query makes the request valid, so
 * ownership decides.
 */
const HTTP_ROUTES: Operation[] = [
  { name: 'http:uploadPaymentFile', method: 'POST', path: '/v1/payment-files', auth: 'user' },
  { name: 'http:paymentFileStatusReport', method: 'GET', path: '/v1/payment-files/{id}/status-report', auth: 'user' },
  {
    name: 'http:accountNotifications',
    method: 'GET',
    path: '/v1/accounts/{id}/notifications?format=camt.054&from=2026-01-01T00:00:00Z&to=2026-02-01T00:00:00Z',
    auth: 'user',
  },
];

const ALL = [...operations(), ...HTTP_ROUTES];

it('walks every procedure, and exactly the acknowledged ones are public', () => {
  expect(ALL.length).toBeGreaterThanOrEqual(20);
  expect(new Set(ALL.filter((op) => op.auth === 'public').map((op) => op.name))).toEqual(PUBLIC_PROCEDURES);
});

describe.each(ALL.filter((op) => op.auth === 'user'))('$name ($method $path) with a user token', (op) => {
  it('answers 401 UNAUTHENTICATED without a valid access token (none, malformed, tampered, expired, an API key)', async () => {
    const owner = await app.createUser();
    const path = await resolvePath(op.path, owner);
    const body = bodyFor(op);
    const key = await apiKeyOf(owner);
    for (const token of [undefined, 'not-a-jwt', `${owner.accessToken}x`, await expiredTokenOf(owner), key.key]) {
      const res = await app.call(op.method, path, token ? { token, body } : { body });
      expect({ token, status: res.status, code: res.body?.code }).toEqual({ token, status: 401, code: 'UNAUTHENTICATED' });
    }
  });
});

describe.each(ALL.filter((op) => op.auth === 'user' && op.path.includes('{')))(
  '$name ($method $path) owned by another user',
  (op) => {
    it("answers 404 NOT_FOUND for another user's resource", async () => {
      const owner = await app.createUser();
      const stranger = await app.createUser();
      const path = await resolvePath(op.path, owner);
      const res = await app.call(op.method, path, { token: stranger.accessToken, body: bodyFor(op) });
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    });
  },
);

describe.each(ALL.filter((op) => op.auth === 'apiKey'))('$name ($method $path) with an API key', (op) => {
  it('answers 401 UNAUTHENTICATED without a valid key (none, unknown, revoked, a user access token)', async () => {
    const owner = await app.createUser();
    const path = await resolvePath(op.path, owner);
    const revoked = await apiKeyOf(owner);
    await app.call('DELETE', `/v1/api-keys/${revoked.id}`, { token: owner.accessToken });
    for (const token of [undefined, `sbk_${'A'.repeat(43)}`, revoked.key, owner.accessToken]) {
      const res = await app.call(op.method, path, token ? { token } : {});
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: 401, code: 'UNAUTHENTICATED' });
    }
  });
});

describe.each(ALL.filter((op) => op.auth === 'apiKey' && op.path.includes('{')))(
  '$name ($method $path) owned by another user',
  (op) => {
    it("answers 404 NOT_FOUND for another user's resource with a user's key", async () => {
      const owner = await app.createUser();
      const stranger = await app.createUser();
      const path = await resolvePath(op.path, owner);
      const res = await app.call(op.method, path, { token: (await apiKeyOf(stranger)).key });
      expect({ status: res.status, code: res.body?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
    });
  },
);

describe.each(ALL.filter((op) => op.auth === 'userOrApiKey'))('$name ($method $path) with a token or an API key', (op) => {
  it('answers 401 UNAUTHENTICATED without a valid credential (none, malformed, tampered, expired, unknown key, revoked key)', async () => {
    const owner = await app.createUser();
    const path = await resolvePath(op.path, owner);
    const body = bodyFor(op);
    const revoked = await apiKeyOf(owner);
    await app.call('DELETE', `/v1/api-keys/${revoked.id}`, { token: owner.accessToken });
    for (const token of [
      undefined,
      'not-a-jwt',
      `${owner.accessToken}x`,
      await expiredTokenOf(owner),
      `sbk_${'A'.repeat(43)}`,
      revoked.key,
    ]) {
      const res = await app.call(op.method, path, token ? { token, body } : { body });
      expect({ token, status: res.status, code: res.body?.code }).toEqual({ token, status: 401, code: 'UNAUTHENTICATED' });
    }
  });
});

describe.each(ALL.filter((op) => op.auth === 'userOrApiKey' && op.path.includes('{')))(
  '$name ($method $path) owned by another user',
  (op) => {
    it("answers 404 NOT_FOUND for another user's resource, by token and by key", async () => {
      const owner = await app.createUser();
      const stranger = await app.createUser();
      const path = await resolvePath(op.path, owner);
      for (const token of [stranger.accessToken, (await apiKeyOf(stranger)).key]) {
        const res = await app.call(op.method, path, { token, body: bodyFor(op) });
        expect({ status: res.status, code: res.body?.code }).toEqual({ status: 404, code: 'NOT_FOUND' });
      }
    });
  },
);
