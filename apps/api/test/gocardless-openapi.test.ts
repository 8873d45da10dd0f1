import path from 'node:path';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes as OPERATIONS } from '../src/faces/gocardless/endpoints.ts';
import { GocardlessErrorSchema } from '../src/faces/gocardless/wire.ts';
import { gocardlessCalls, SANDBOX } from './gocardless-calls.ts';
import { type Loose, startTestApp, type TestApp } from './helpers.ts';
import { spectralErrors } from './spectral.ts';

const _API_DIR = path.resolve(import.meta.dirname, '..');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

const faceRoutes = () => Object.keys(OPERATIONS);
const { client, decide, refusal, secrets, baseUrl } = gocardlessCalls(() => app);
const schemaOf = (route: string) => {
  const operation = OPERATIONS[route];
  if (!operation) throw new Error(`no operation ${route}`);
  return operation.response;
};

// Every answer here is also checked against GoCardless's published v2 document (test/face-answers.ts).
describe('the GoCardless face’s OpenAPI document', () => {
  it('is served, describes every route, and has no Spectral errors', { timeout: 120_000 }, async () => {
    const response = await fetch(`${app.url}/faces/gocardless/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; servers: { url: string }[]; paths: Record<string, Loose> };
    expect(document.openapi).toBe('3.1.0');
    expect(document.servers[0]?.url).toMatch(/\/gocardless\/api\/v2$/);
    const described = Object.entries(document.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map((method) => `${method} ${p.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(described.sort()).toEqual(faceRoutes().sort());
    const agreement = document.paths['/agreements/enduser/'].post;
    expect(agreement.requestBody.content['application/json'].schema.properties.max_historical_days).toBeDefined();
    expect(Object.keys(agreement.responses)).toEqual(expect.arrayContaining(['201', '400', '401', '404', '429']));
    const requisition = JSON.stringify(document.paths['/requisitions/{id}/'].get.responses['200']);
    expect(requisition).toContain('#/components/schemas/Requisition');
    expect(JSON.stringify(document)).not.toContain('#/$defs/');

    expect(await spectralErrors(document, 'extends: ["spectral:oas"]\n')).toEqual([]);
  });

  it('describes exactly what the face answers nordigen-node', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto');
    await simulate(app, user, { accountId, amount: 250_00, description: 'Wpłata', merchant: 'ACME' });
    expect(
      (await simulate(app, user, { accountId, amount: -12_34, description: 'Kawa', merchant: 'Kawiarnia', status: 'pending' }))
        .status,
    ).toBe(201);
    const nordigen = await client(user);
    const parse = (route: string, body: unknown) => {
      const parsed = schemaOf(route).safeParse(body);
      expect(parsed.error?.issues ?? [], route).toEqual([]);
    };
    const { secretId, secretKey } = await secrets(user);
    const tokens = await fetch(`${baseUrl()}/token/new/`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ secret_id: secretId, secret_key: secretKey }),
    }).then((res) => res.json() as Promise<{ refresh: string }>);
    parse('post /token/new/', tokens);
    parse('post /token/refresh/', await nordigen.exchangeToken({ refreshToken: tokens.refresh }));
    parse('get /institutions/', await nordigen.institution.getInstitutions({ country: 'pl' }));
    const institution = await nordigen.institution.getInstitutionById(SANDBOX);
    expect(institution.identification_codes).toEqual([]); // required by GoCardless's document
    parse('get /institutions/:id/', institution);
    const agreement = await nordigen.agreement.createAgreement({ institutionId: 'SANDBANK_PREFIKS_SNDBPLP2' });
    parse('post /agreements/enduser/', agreement);
    parse('get /agreements/enduser/:id/', await nordigen.agreement.getAgreementById(agreement.id));
    const requisition = await nordigen.requisition.createRequisition({
      redirectUrl: 'https://app.example/cb',
      institutionId: 'SANDBANK_PREFIKS_SNDBPLP2',
      agreement: agreement.id,
      reference: 'openapi',
    });
    parse('post /requisitions/', requisition);
    expect((await decide(user, requisition.id, { approve: true })).status).toBe(200);
    const linked = await nordigen.requisition.getRequisitionById(requisition.id);
    expect(linked).not.toHaveProperty('ssn'); // the live service's null is not the document's string
    parse('get /requisitions/:id/', linked);
    parse('get /requisitions/', await nordigen.requisition.getRequisitions());
    const account = nordigen.account(linked.accounts[0]);
    // Never read before: no `last_accessed` (the document's type allows no null), then the first read's time.
    const unread = await account.getMetadata();
    expect(unread).not.toHaveProperty('last_accessed');
    parse('get /accounts/:id/', unread);
    parse('get /accounts/:id/', await account.getMetadata());
    expect(await account.getMetadata()).toHaveProperty('last_accessed');
    parse('get /accounts/:id/details/', await account.getDetails());
    parse('get /accounts/:id/balances/', await account.getBalances());
    const transactions = await account.getTransactions();
    expect(transactions.transactions.pending[0]).not.toHaveProperty('transactionId');
    parse('get /accounts/:id/transactions/', transactions);
    const missing = await refusal(nordigen.requisition.getRequisitionById('00000000-0000-7000-8000-000000000000'));
    expect(GocardlessErrorSchema.safeParse(missing.body).success).toBe(true);
  });
});
