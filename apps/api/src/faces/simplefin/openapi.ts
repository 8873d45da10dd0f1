/**
 * `/faces/simplefin/openapi.json`: the SimpleFIN face (docs/faces/simplefin.md) as OpenAPI 3.1 —
 * the protocol's three routes under the server `<PUBLIC_URL>/simplefin`, `GET /accounts`'s query
 * parameters as query.ts reads them, the bodies from the zod schemas in responses.ts, and the
 * protocol's errors (plain text, not our JSON contract). The setup token that starts a connection
 * comes from the main API (`POST /v1/simplefin/setup-token`, in /openapi.json).
 */
import { limitHeader, RESPONSE_HEADERS } from '@sandbank/core';
import type { RequestHandler } from 'express';
import { schemaCollector, withComponentRefs } from '../openapi-json.ts';
import { FLAG_VALUES, SUPPORTED_VERSIONS, UNIX_SECONDS_PATTERN, VERSION_VALUES } from './query.ts';
import { AccountSetV1Schema, AccountSetV2Schema, InfoSchema } from './responses.ts';
import { CLAIM_CODE_PATTERN } from './router.ts';

/** Every answer carries the RateLimit-* headers: the per-IP limit's, or the credential's on GET /accounts. */
const text = (description: string, example: string, headers: Record<string, unknown> = RESPONSE_HEADERS) => ({
  description,
  headers,
  content: { 'text/plain': { schema: { type: 'string', maxLength: 2048 }, example } },
});

const forbidden = (description: string) => text(description, 'Forbidden');

const tooMany = (description: string) =>
  text(description, 'Too many requests', { ...RESPONSE_HEADERS, 'Retry-After': limitHeader('Seconds to wait before retrying') });

const unixSeconds = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description,
  schema: { type: 'string', pattern: UNIX_SECONDS_PATTERN, maxLength: 64 },
  example: '1767225600',
});

const flag = (name: string, description: string) => ({
  name,
  in: 'query',
  required: false,
  description: `${description} (on for ${FLAG_VALUES.map((value) => `\`${value}\``).join(' or ')}; off otherwise)`,
  schema: { type: 'string', maxLength: 16 },
});

export function buildSimplefinOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const schemas = schemaCollector();
  const json = (schema: Parameters<typeof schemas.json>[0]) => schemas.json(schema, 'output');
  const accountSet = { anyOf: [json(AccountSetV1Schema), json(AccountSetV2Schema)] };
  const origin = serverUrl.replace(/\/$/, '');
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Sandbank — the SimpleFIN face',
      version: SUPPORTED_VERSIONS.join(', '),
      description:
        'The SimpleFIN Protocol (1.0, and the 2.0 draft with version=2) over a Sandbank world, for budgeting apps such as Actual Budget. A connection starts with a setup token from the main API (POST /v1/simplefin/setup-token): base64 of a claim URL; claiming it answers the access URL, whose user and password are the credentials of GET /accounts. Errors are the protocol’s: plain text, a bare 403 for any bad credential or claim. Money is a decimal string with two decimals; times are Unix seconds. See docs/faces/simplefin.md.',
      license: { name: 'MIT', identifier: 'MIT' },
    },
    servers: [{ url: `${origin}/simplefin`, 'x-internal': false }],
    tags: [{ name: 'simplefin', description: 'The SimpleFIN Protocol' }],
    paths: {
      '/info': {
        get: {
          operationId: 'getInfo',
          tags: ['simplefin'],
          summary: 'The protocol versions this server supports',
          description: 'No credentials needed.',
          security: [{}],
          responses: {
            '200': {
              description: 'The versions',
              headers: RESPONSE_HEADERS,
              content: { 'application/json': { schema: json(InfoSchema) } },
            },
            '429': tooMany('Too many requests from this IP'),
          },
        },
      },
      '/claim/{code}': {
        post: {
          operationId: 'claimAccessUrl',
          tags: ['simplefin'],
          summary: 'Claim the access URL of a setup token (once)',
          description:
            'The setup token is base64 of this URL. The first claim creates an API key of the user named "SimpleFIN" and answers the access URL `http(s)://<user id>:<API key>@<public host>/simplefin`; every later claim, an unknown or expired code, or one over the API-key limit, answers 403.',
          security: [{}],
          parameters: [
            {
              name: 'code',
              in: 'path',
              required: true,
              description: 'The claim code (256 random bits, base64url)',
              schema: { type: 'string', pattern: CLAIM_CODE_PATTERN, maxLength: 128 },
            },
          ],
          responses: {
            '200': text('The access URL', 'http://0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d:sbk_…@localhost:3000/simplefin'),
            '403': forbidden('Used, unknown, malformed or expired code'),
            '429': tooMany('Too many requests from this IP'),
          },
        },
      },
      '/accounts': {
        get: {
          operationId: 'getAccounts',
          tags: ['simplefin'],
          summary: 'The Account Set: every account of the user with its balances and transactions',
          description:
            'Balances are as of the world’s clock (`balance-date`). Transactions are those whose date is in [start-date, end-date), oldest first, at most 10,000 per account (the newest; the body’s errors say when more were left out).',
          security: [{ accessUrl: [] }],
          parameters: [
            unixSeconds(
              'start-date',
              'Transactions dated on or after it (Unix seconds; a fraction is honoured to the millisecond)',
            ),
            unixSeconds('end-date', 'Transactions dated before it, not on it'),
            flag('pending', 'Include pending transactions'),
            {
              name: 'account',
              in: 'query',
              required: false,
              description: 'Only these account ids (repeat the parameter); ids that are not the user’s are left out',
              schema: { type: 'array', items: { type: 'string', maxLength: 64 }, maxItems: 100 },
              style: 'form',
              explode: true,
            },
            flag('balances-only', 'Balances without transactions (every account keeps an empty transactions array)'),
            {
              name: 'version',
              in: 'query',
              required: false,
              description: 'The body’s protocol version: 1.0 when absent',
              schema: { type: 'string', enum: VERSION_VALUES },
            },
          ],
          responses: {
            '200': {
              description: 'The Account Set of the version asked for',
              headers: RESPONSE_HEADERS,
              content: { 'application/json': { schema: accountSet } },
            },
            '400': text(
              'A malformed start-date or end-date, or an unknown version (the message says which)',
              'start-date must be a Unix timestamp in seconds',
              RESPONSE_HEADERS,
            ),
            '403': forbidden('Missing, malformed, unknown or revoked credentials, or another user’s'),
            '429': tooMany('Too many requests from this IP or for this credential'),
          },
        },
      },
    },
    components: {
      schemas: schemas.components,
      securitySchemes: {
        accessUrl: {
          type: 'http',
          scheme: 'basic',
          description:
            'The user and password of the access URL: the user id and a SimpleFIN API key (no character needs escaping).',
        },
      },
    },
  };
  return withComponentRefs(document);
}

/** Serves the document, built once. */
export function simplefinOpenApi(serverUrl: string): RequestHandler {
  let document: string | undefined;
  return (_req, res) => {
    document ??= JSON.stringify(buildSimplefinOpenApiDocument(serverUrl));
    res.type('application/json').send(document);
  };
}
