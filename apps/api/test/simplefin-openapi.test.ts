import path from 'node:path';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaceDocument } from '../src/faces/openapi-json.ts';
import { simplefinFace } from '../src/faces/simplefin/face.ts';
import { type Loose, startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { spectralErrors } from './spectral.ts';

const API_DIR = path.resolve(import.meta.dirname, '..');

let app: TestApp;
let document: { openapi: string; paths: Record<string, Loose>; components: Record<string, Loose> };
beforeAll(async () => {
  app = await startTestApp();
  const response = await fetch(`${app.url}/faces/simplefin/openapi.json`);
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  document = (await response.json()) as typeof document;
});
afterAll(() => app?.close());

/** Setup token → claim → GET /accounts with the access URL's credentials as Basic auth. */
async function connect(user: TestUser) {
  const created = await app.call('POST', '/v1/simplefin/setup-token', { token: user.accessToken, body: {} });
  expect(created.status).toBe(201);
  const claimUrl = new URL(Buffer.from(created.body.data.setupToken, 'base64').toString());
  const claimed = await fetch(app.url + claimUrl.pathname, { method: 'POST' });
  expect(claimed.status).toBe(200);
  const access = new URL(await claimed.text());
  const authorization = `Basic ${Buffer.from(`${access.username}:${access.password}`).toString('base64')}`;
  return async (query = '') => {
    const response = await fetch(`${app.url}/simplefin/accounts${query}`, { headers: { authorization } });
    expect(response.status, query).toBe(200);
    return (await response.json()) as Loose;
  };
}

function validator() {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  (addFormatsModule as unknown as (ajv: Ajv2020) => void)(ajv);
  ajv.addFormat('int64', true); // OpenAPI's format names, not checks
  ajv.addSchema({ ...document, $id: 'simplefin' });
  const pointer = (...parts: string[]) => parts.map((part) => part.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');
  const compile = (ref: string) => ajv.compile({ $ref: `simplefin#/${ref}` });
  return {
    accounts: compile(pointer('paths', '/accounts', 'get', 'responses', '200', 'content', 'application/json', 'schema')),
    info: compile(pointer('paths', '/info', 'get', 'responses', '200', 'content', 'application/json', 'schema')),
    v1: compile('components/schemas/AccountSetV1'),
    v2: compile('components/schemas/AccountSetV2'),
  };
}

describe('the SimpleFIN face’s OpenAPI document', () => {
  it('describes the protocol: its three routes, the query of GET /accounts, plain-text errors', () => {
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(['/accounts', '/claim/{code}', '/info']);
    const accounts = document.paths['/accounts'].get;
    expect(accounts.parameters.map((parameter: { name: string }) => parameter.name)).toEqual([
      'start-date',
      'end-date',
      'pending',
      'account',
      'balances-only',
      'version',
    ]);
    expect(accounts.security).toEqual([{ accessUrl: [] }]);
    expect(document.components.securitySchemes.accessUrl).toMatchObject({ type: 'http', scheme: 'basic' });
    expect(Object.keys(accounts.responses['403'].content)).toEqual(['text/plain']);
    expect(document.paths['/claim/{code}'].post.responses['403'].content['text/plain'].example).toBe('Forbidden');
    expect(Object.keys(document.components.schemas).sort()).toEqual(
      ['AccountExtra', 'AccountSetV1', 'AccountSetV2', 'AccountV1', 'AccountV2', 'Info', 'Organization', 'Transaction'].sort(),
    );
  });

  it('has no Spectral errors (spectral:oas + OWASP, as the main document, but HTTP Basic)', { timeout: 120_000 }, async () => {
    // The protocol's access URL carries HTTP Basic credentials: the one OWASP rule it cannot meet.
    const rules = `extends: [${JSON.stringify(path.join(API_DIR, '.spectral.yaml'))}]\nrules:\n  owasp:api2:2023-no-http-basic: off\n`;
    // An https server, as the main document is linted (the test app's PUBLIC_URL is http).
    expect(await spectralErrors(buildFaceDocument(simplefinFace, 'https://sandbank.example'), rules)).toEqual([]);
  });

  it('holds for the face’s real answers, in both versions, and refuses a wrong one', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto');
    await openAccount(app, user, 'Oszczędności');
    await simulate(app, user, { accountId, amount: 1_234_50, description: 'Wypłata', merchant: 'ACME' });
    await simulate(app, user, { accountId, amount: -5, description: 'Opłata' });
    await simulate(app, user, { accountId, amount: -2_500, status: 'pending', merchant: 'Żabka', description: 'ŻABKA Z1' });
    const accounts = await connect(user);
    const validate = validator();
    const check = (validate: ReturnType<typeof validator>['v1'], body: unknown, what: string) => {
      expect(validate(body), `${what}: ${JSON.stringify(validate.errors)}`).toBe(true);
    };

    for (const query of ['', '?pending=1', '?version=1', '?balances-only=1', `?account=${accountId}&pending=1`]) {
      const body = await accounts(query);
      check(validate.accounts, body, query);
      check(validate.v1, body, `${query} as 1.0`);
    }
    for (const query of ['?version=2', '?version=2.0&pending=1', '?version=2&balances-only=1']) {
      const body = await accounts(query);
      check(validate.accounts, body, query);
      check(validate.v2, body, `${query} as 2.0`);
    }
    const full = await accounts('?pending=1');
    expect(full.accounts[0].transactions).toHaveLength(3);
    const info = await fetch(`${app.url}/simplefin/info`);
    check(validate.info, await info.json(), '/info');

    // Not vacuous: a body with money of one decimal, a missing field or an extra one fails.
    const account = full.accounts[0];
    const wrong = [
      { ...full, accounts: [{ ...account, balance: '1234.5' }] },
      { ...full, accounts: [{ ...account, 'balance-date': undefined }] },
      { ...full, accounts: [{ ...account, unknown: 1 }] },
      { ...full, accounts: [{ ...account, extra: { iban: 'PL12' } }] },
      { accounts: full.accounts },
    ];
    for (const body of wrong)
      expect(validate.accounts(JSON.parse(JSON.stringify(body))), JSON.stringify(body).slice(0, 80)).toBe(false);
  });
});
