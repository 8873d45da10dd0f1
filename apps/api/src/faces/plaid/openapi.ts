/**
 * `/faces/plaid/openapi.json`: the face described as OpenAPI 3.1, generated from the zod schemas it
 * uses (request bodies from schemas.ts, answers from responses.ts) with zod's own JSON Schema
 * output. Every endpoint is a POST; every error is Plaid's error body.
 */
import type { z } from 'zod';
import { schemaCollector, withComponentRefs } from '../openapi-json.ts';
import { endpoints } from './endpoints.ts';
import { PlaidErrorSchema, RESPONSES } from './responses.ts';

export function buildPlaidOpenApiDocument(serverUrl: string): Record<string, unknown> {
  // Schemas with a `meta({ id })` (PlaidError, Item, Account, Transaction) become shared components.
  const schemas = schemaCollector();
  const json = (schema: z.ZodType, io: 'input' | 'output') => ({ 'application/json': { schema: schemas.json(schema, io) } });
  const paths: Record<string, unknown> = {};
  for (const [path, endpoint] of Object.entries(endpoints)) {
    const response = RESPONSES[path];
    if (!response) throw new Error(`no response schema for ${path}`);
    paths[path] = {
      post: {
        operationId: path.slice(1).replaceAll('/', '_'),
        requestBody: { required: true, content: json(endpoint.schema, 'input') },
        responses: {
          200: { description: 'success', content: json(response, 'output') },
          default: { description: "Plaid's error shape", content: json(PlaidErrorSchema, 'output') },
        },
      },
    };
  }
  const document = {
    openapi: '3.1.0',
    info: {
      title: 'Sandbank — the Plaid face',
      version: '2020-09-14',
      description:
        "Plaid's API (version 2020-09-14) over a Sandbank world: client_id = your user id, secret = one of your API keys (headers PLAID-CLIENT-ID / PLAID-SECRET or body fields). See docs/faces/plaid.md.",
    },
    servers: [{ url: `${serverUrl.replace(/\/$/, '')}/plaid` }],
    paths,
    components: { schemas: schemas.components },
  };
  return withComponentRefs(document);
}
