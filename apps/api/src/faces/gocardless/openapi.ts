/**
 * `/faces/gocardless/openapi.json` (docs/concepts/faces.md): the GoCardless Bank Account Data face as OpenAPI 3.1,
 * generated from the zod schemas it parses requests with (wire.ts) and the ones that describe its
 * answers (responses.ts). Every route the face serves has an entry in OPERATIONS, or building the
 * document throws; every error is GoCardless's `{ summary, detail, status_code }`.
 */
import { z } from 'zod';
import { schemaCollector, withComponentRefs } from '../openapi-json.ts';
import { accountEndpoints, publicEndpoints, userEndpoints } from './endpoints.ts';
import {
  AccountResponse,
  AgreementResponse,
  BalancesResponse,
  DetailsResponse,
  GocardlessErrorSchema,
  GocardlessFieldErrorSchema,
  InstitutionResponse,
  InstitutionsResponse,
  RequisitionResponse,
  RequisitionsResponse,
  TokenNewResponse,
  TokenRefreshResponse,
  TransactionsResponse,
} from './responses.ts';
import {
  AgreementSchema,
  PageQuerySchema,
  RequisitionSchema,
  TokenNewSchema,
  TokenRefreshSchema,
  TransactionsQuerySchema,
} from './wire.ts';

interface Operation {
  summary: string;
  body?: z.ZodType;
  query?: z.ZodObject;
  response: z.ZodType;
  /** The success status (GoCardless answers 201 to a created agreement or requisition). */
  status: 200 | 201;
}

const CountryQuery = z.object({ country: z.string().length(2).optional().meta({ description: 'ISO 3166 code, any case' }) });

/** Keyed as the router is: `post /token/new/`, `get /accounts/:id/details/`, … */
export const OPERATIONS: Record<string, Operation> = {
  'post /token/new/': {
    summary: 'Access and refresh tokens for secret_id (an API key’s id) and secret_key (the key)',
    body: TokenNewSchema,
    response: TokenNewResponse,
    status: 200,
  },
  'post /token/refresh/': {
    summary: 'A new access token for a live refresh token',
    body: TokenRefreshSchema,
    response: TokenRefreshResponse,
    status: 200,
  },
  'get /institutions/': {
    summary: 'The institutions, by country',
    query: CountryQuery,
    response: InstitutionsResponse,
    status: 200,
  },
  'get /institutions/:id/': { summary: 'One institution', response: InstitutionResponse, status: 200 },
  'post /agreements/enduser/': {
    summary: 'Create an end-user agreement',
    body: AgreementSchema,
    response: AgreementResponse,
    status: 201,
  },
  'get /agreements/enduser/:id/': { summary: 'One end-user agreement', response: AgreementResponse, status: 200 },
  'post /requisitions/': {
    summary: 'Create a requisition (status CR; its link opens the consent page)',
    body: RequisitionSchema,
    response: RequisitionResponse,
    status: 201,
  },
  'get /requisitions/': {
    summary: 'The requisitions, newest first',
    query: PageQuerySchema,
    response: RequisitionsResponse,
    status: 200,
  },
  'get /requisitions/:id/': {
    summary: 'One requisition, its status on the world’s clock',
    response: RequisitionResponse,
    status: 200,
  },
  'get /accounts/:id/': { summary: 'A linked account’s metadata', response: AccountResponse, status: 200 },
  'get /accounts/:id/details/': {
    summary: 'A linked account’s details (IBAN, BIC, owner)',
    response: DetailsResponse,
    status: 200,
  },
  'get /accounts/:id/balances/': {
    summary: 'closingBooked, interimBooked and interimAvailable',
    response: BalancesResponse,
    status: 200,
  },
  'get /accounts/:id/transactions/': {
    summary: 'Booked and pending transactions, within the agreement’s max_historical_days',
    query: TransactionsQuerySchema,
    response: TransactionsResponse,
    status: 200,
  },
};

/** Every route the face serves, as OPERATIONS keys it. */
export const faceRoutes = (): string[] => [
  ...Object.keys(publicEndpoints).map((path) => `post ${path}`),
  ...Object.keys(userEndpoints),
  ...Object.keys(accountEndpoints),
];

const ERRORS: Record<string, string> = {
  '400':
    'A refused body field, keyed by its name (GocardlessFieldError, as the live service answers: also on POST /token/new/, whose document lists no 400), an invalid query parameter (`Invalid <field>`), or a date range outside the agreement',
  '401': 'Missing, invalid or expired token, wrong secrets, or an expired agreement (AccessExpiredError)',
  '403': 'A scope the agreement does not grant (AccessScopeError)',
  '404': 'Not found, not yours, or an account of a requisition not linked',
  '429': 'The credential’s rate limit, or an institution’s daily limit per account (RateLimitError)',
};

export function buildGocardlessOpenApiDocument(serverUrl: string): Record<string, unknown> {
  const schemas = schemaCollector();
  const json = (schema: z.ZodType, io: 'input' | 'output') => ({ 'application/json': { schema: schemas.json(schema, io) } });
  const error = (description: string, body: boolean) => ({
    description,
    content: json(body ? z.union([GocardlessErrorSchema, GocardlessFieldErrorSchema]) : GocardlessErrorSchema, 'output'),
  });
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of faceRoutes()) {
    const operation = OPERATIONS[route];
    if (!operation) throw new Error(`no OpenAPI operation for ${route}`);
    const [method, path] = route.split(' ') as [string, string];
    const openPath = path.replace(/:(\w+)/g, '{$1}');
    const query = operation.query
      ? (schemas.json(operation.query, 'input') as { properties?: Record<string, unknown>; required?: string[] })
      : null;
    const isPublic = path.startsWith('/token/');
    paths[openPath] ??= {};
    paths[openPath][method] = {
      operationId: `${method}_${path.replace(/[/:]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: operation.summary,
      ...(isPublic ? { security: [] } : {}),
      parameters: [
        ...(path.includes(':id') ? [{ name: 'id', in: 'path', required: true, schema: { type: 'string', format: 'uuid' } }] : []),
        ...Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
          name,
          in: 'query',
          required: query?.required?.includes(name) ?? false,
          schema,
        })),
      ],
      ...(operation.body ? { requestBody: { required: true, content: json(operation.body, 'input') } } : {}),
      responses: {
        [operation.status]: { description: 'success', content: json(operation.response, 'output') },
        ...Object.fromEntries(
          Object.entries(ERRORS).map(([status, description]) => [
            status,
            error(description, status === '400' && !!operation.body),
          ]),
        ),
      },
    };
  }
  return withComponentRefs({
    openapi: '3.1.0',
    info: {
      title: 'Sandbank — the GoCardless Bank Account Data face',
      version: '2.0',
      description:
        "GoCardless Bank Account Data's API (v2) over a Sandbank world, as nordigen-node calls it: secret_id = one of your API keys' id, secret_key = the key. Requisition statuses CR, GC, SA, LN, RJ, EX. See docs/faces/gocardless.md.",
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, '')}/gocardless/api/v2` }],
    security: [{ jwt: [] }],
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: {
        jwt: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT', description: 'The access token of POST /token/new/' },
      },
    },
  });
}
