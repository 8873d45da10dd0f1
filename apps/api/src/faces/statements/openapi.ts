/**
 * The statement face as an OpenAPI 3.1 document of its own (docs/concepts/faces.md), served at
 * `/faces/statements/openapi.json`: the two routes, their query parameters generated from the zod
 * schema the router parses with, the file media types of the formats, and our error contract.
 */
import { errorBodyJsonSchema, limitHeader, RESPONSE_HEADERS } from '@sandbank/core';
import { z } from 'zod';
import { FORMAT_NAMES, FORMATS } from './formats.ts';
import { StatementQuerySchema } from './query.ts';

const DESCRIPTIONS: Record<string, string> = {
  from: 'First day (YYYY-MM-DD, Europe/Warsaw, inclusive); default: the first day of `to`’s month',
  to: 'Last day (inclusive); default and upper bound: today in the account’s world',
  format: 'The file format',
  version: 'camt only: 001.02 or 001.08',
  encoding: 'MT940 only: the code page',
};

function queryParameters() {
  const json = z.toJSONSchema(StatementQuerySchema, { io: 'input', unrepresentable: 'any' }) as {
    properties: Record<string, Record<string, unknown>>;
    required?: string[];
  };
  return Object.entries(json.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: json.required?.includes(name) ?? false,
    description: DESCRIPTIONS[name],
    schema: name === 'from' || name === 'to' ? { type: 'string', format: 'date' } : schema,
  }));
}

const headers = RESPONSE_HEADERS;

const file = {
  headers,
  description: 'The statement file (`Content-Disposition: attachment; filename="sandbank-<IBAN>-<from>-<to>-<format>.<ext>"`)',
  content: Object.fromEntries(
    [...new Set(FORMAT_NAMES.map((name) => FORMATS[name].contentType({ version: '02', encoding: 'utf-8' })))].map((type) => [
      type,
      { schema: { type: 'string', format: 'binary' } },
    ]),
  ),
};

const error = (description: string) => ({
  description,
  headers,
  content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
});

const responses = {
  '200': file,
  '400': error('Bad parameters: unknown format (the detail lists the formats), `from` after `to`, a malformed day or id'),
  '401': error('Missing or invalid credentials'),
  '404': error('No such account, or not the caller’s'),
  '422': error('PERIOD_TOO_LONG: more than 366 days'),
  '429': {
    ...error(
      'Too many requests: the API key’s limit, or more statements streaming at once than this server writes (a quarter of its database pool)',
    ),
    headers: { ...headers, 'Retry-After': limitHeader('Seconds to wait before retrying') },
  },
};

export function buildStatementsOpenApi(serverUrl: string) {
  const parameters = queryParameters();
  const path = (name: string, description: string) => ({
    name,
    in: 'path',
    required: true,
    description,
    schema: { type: 'string', maxLength: 512 },
  });
  return {
    openapi: '3.1.0',
    info: {
      title: 'Sandbank statements face',
      version: '1.0.0',
      description:
        'Bank statement files of a Sandbank account: camt.053, camt.052, MT940, OFX, CSV. See docs/faces/statements.md.',
    },
    servers: [{ url: serverUrl, 'x-internal': false }],
    tags: [{ name: 'statements', description: 'Statement files' }],
    paths: {
      '/v1/accounts/{id}/statement': {
        get: {
          operationId: 'getStatement',
          tags: ['statements'],
          summary: 'Download a statement file',
          description: 'One account’s statement for a period, with the user’s access token.',
          security: [{ userToken: [] }],
          parameters: [path('id', 'The account id'), ...parameters],
          responses,
        },
      },
      '/api/owner/{owner}/accounts/{id}/statement': {
        get: {
          operationId: 'getOwnerStatement',
          tags: ['statements'],
          summary: 'Download a statement file with an API key',
          description: 'The same file, for external systems: the owner is resolved as by the pull endpoint; limited per API key.',
          security: [{ apiKey: [] }],
          parameters: [path('owner', 'The user id, e-mail or its local part'), path('id', 'The account id'), ...parameters],
          responses,
        },
      },
    },
    components: {
      schemas: { Error: errorBodyJsonSchema() },
      securitySchemes: {
        userToken: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'A user access token: an HS256 JWT handled per RFC8725 (as in the main API document).',
        },
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'API key' },
      },
    },
  };
}
