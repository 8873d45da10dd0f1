/**
 * The statement face's two doors to the same file (docs/faces/statements.md): with the user's access
 * token, and with an API key for external systems. Each route answers itself: the file streams to the
 * response (stream.ts). Their document entries are written out: the file's media types per format, our
 * error contract, the query's parameters as the route parses them.
 */
import { limitHeader, RESPONSE_HEADERS } from '@sandbank/core';
import { ErrorBodySchema } from '@sandbank/schemas';
import { z } from 'zod';
import type { FaceRoute, JsonSchemaOf, OperationDoc } from '../kit.ts';
import { FORMAT_NAMES, FORMATS } from './formats.ts';
import { byApiKey, type StatementCall } from './input.ts';
import { sendStatementRead } from './stream.ts';
import { StatementQuerySchema } from './wire.ts';

/** The metrics label of a statement route (never a raw path: ids stay out of label values), or undefined. */
export function statementRouteLabel(path: string): string | undefined {
  if (path === '/faces/statements/openapi.json') return path;
  if (/^\/v1\/accounts\/[^/]+\/statement$/.test(path)) return '/v1/accounts/{id}/statement';
  if (/^\/api\/owner\/[^/]+\/accounts\/[^/]+\/statement$/.test(path)) return '/api/owner/{owner}/accounts/{id}/statement';
  return undefined;
}

const DESCRIPTIONS: Record<string, string> = {
  from: 'First day (YYYY-MM-DD, Europe/Warsaw, inclusive); default: the first day of `to`’s month',
  to: 'Last day (inclusive); default and upper bound: today in the account’s world',
  format: 'The file format',
  version: 'camt only: 001.02 or 001.08',
  encoding: 'MT940 only: the code page',
};

const pathParameter = (name: string, description: string) => ({
  name,
  in: 'path',
  required: true,
  description,
  schema: { type: 'string', maxLength: 512 },
});

/** A statement route's entry: the query's parameters, the file of each format, our error contract. */
function statementDoc(json: JsonSchemaOf, entry: Omit<OperationDoc, 'responses'>): OperationDoc {
  const query = json(StatementQuerySchema, 'input') as { properties: Record<string, unknown>; required?: string[] };
  const parameters = Object.entries(query.properties).map(([name, schema]) => ({
    name,
    in: 'query',
    required: query.required?.includes(name) ?? false,
    description: DESCRIPTIONS[name],
    schema: name === 'from' || name === 'to' ? { type: 'string', format: 'date' } : schema,
  }));
  const error = (description: string) => ({
    description,
    headers: RESPONSE_HEADERS,
    content: { 'application/json': { schema: json(ErrorBodySchema) } },
  });
  const types = new Set(FORMAT_NAMES.map((name) => FORMATS[name].contentType({ version: '02', encoding: 'utf-8' })));
  return {
    ...entry,
    tags: ['statements'],
    parameters: [...(entry.parameters ?? []), ...parameters],
    responses: {
      '200': {
        headers: RESPONSE_HEADERS,
        description:
          'The statement file (`Content-Disposition: attachment; filename="sandbank-<IBAN>-<from>-<to>-<format>.<ext>"`)',
        content: Object.fromEntries([...types].map((type) => [type, { schema: { type: 'string', format: 'binary' } }])),
      },
      '400': error('Bad parameters: unknown format (the detail lists the formats), `from` after `to`, a malformed day or id'),
      '401': error('Missing or invalid credentials'),
      '404': error('No such account, or not the caller’s'),
      '422': error('PERIOD_TOO_LONG: more than 366 days'),
      '429': {
        ...error(
          'Too many requests: the API key’s limit, or more statements streaming at once than this server writes (a quarter of its database pool)',
        ),
        headers: { ...RESPONSE_HEADERS, 'Retry-After': limitHeader('Seconds to wait before retrying') },
      },
    },
  };
}

/** The file, as the document's 200 describes it (the route streams it itself). */
const StatementFile = z.string().meta({ format: 'binary' });

export const routes: Record<string, FaceRoute<StatementCall>> = {
  'get /v1/accounts/:id/statement': {
    summary: 'Download a statement file',
    query: StatementQuerySchema,
    response: StatementFile,
    doc: (json) =>
      statementDoc(json, {
        operationId: 'getStatement',
        description: 'One account’s statement for a period, with the user’s access token.',
        security: [{ userToken: [] }],
        parameters: [pathParameter('id', 'The account id')],
      }),
    run: sendStatementRead,
  },
  'get /api/owner/:owner/accounts/:id/statement': {
    summary: 'Download a statement file with an API key',
    query: StatementQuerySchema,
    response: StatementFile,
    prelude: byApiKey,
    doc: (json) =>
      statementDoc(json, {
        operationId: 'getOwnerStatement',
        description: 'The same file, for external systems: the owner is resolved as by the pull endpoint; limited per API key.',
        security: [{ apiKey: [] }],
        parameters: [pathParameter('owner', 'The user id, e-mail or its local part'), pathParameter('id', 'The account id')],
      }),
    run: sendStatementRead,
  },
};
