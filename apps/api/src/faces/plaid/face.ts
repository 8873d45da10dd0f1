/**
 * The Plaid face (docs/faces/plaid.md) at /plaid, on the face kit: every endpoint is a POST of JSON
 * (any content type is read as JSON, as Plaid's API does; a trailing slash is another path),
 * answered in Plaid's shapes and errors (errors.ts). The steps, in Plaid's order of checks: the body
 * parses as a JSON object (INVALID_BODY), the credentials are present and are this user's
 * (MISSING_FIELDS, INVALID_API_KEYS), the credential's rate limit (RATE_LIMIT_EXCEEDED), then the
 * endpoint: its body's shape, the Item of the access token, its work (endpoint.ts). A path of a
 * product Sandbank does not serve is PRODUCTS_NOT_SUPPORTED naming it, after the same checks.
 */
import { authenticatePlaid, retryAfterOf } from '@sandbank/core';
import { z } from 'zod';
import { type Call, chargeCredential, type FaceDefinition, type FaceRoute } from '../kit.ts';
import { endpoint, runEndpoint } from './endpoint.ts';
import { routes } from './endpoints.ts';
import { fromDomain, plaidErrors, toAnswer } from './errors.ts';
import { type PlaidCall, readCredentials } from './input.ts';
import { UNSERVED_PRODUCT_PATHS } from './products.ts';
import { PlaidErrorSchema } from './wire.ts';

async function authenticate(call: Call): Promise<PlaidCall> {
  const { clientId, secret } = readCredentials(call.req);
  const credential =
    clientId.length <= 64 && secret.length <= 256
      ? await authenticatePlaid(call.em, call.deps.config, { clientId, secret })
      : null;
  if (!credential) throw plaidErrors.invalidApiKeys();
  await chargeCredential(call, `plaid:${credential.keyId}`, ({ retryAfter }) => plaidErrors.rateLimited(retryAfter));
  return { ...call, userId: credential.userId };
}

/** Any body (Plaid's own fields differ per product), refused once the caller is known. */
const unservedProduct = (product: string): FaceRoute<PlaidCall> => {
  const refused = endpoint(z.looseObject({}), undefined, async () => Promise.reject(plaidErrors.productsNotSupported(product)));
  return { summary: `${product}: not served`, response: PlaidErrorSchema, run: (call) => runEndpoint(call, refused) };
};

export const plaidFace: FaceDefinition<PlaidCall> = {
  name: 'plaid',
  basePath: '/plaid',
  info: {
    title: 'Sandbank — the Plaid face',
    version: '2020-09-14',
    description:
      "Plaid's API (version 2020-09-14) over a Sandbank world: client_id = your user id, secret = one of your API keys (headers PLAID-CLIENT-ID / PLAID-SECRET or body fields). See docs/faces/plaid.md.",
  },
  securityScheme: {
    type: 'apiKey',
    in: 'header',
    name: 'PLAID-SECRET',
    description: 'One of your API keys, with your user id in PLAID-CLIENT-ID (or client_id and secret in the body)',
  },
  body: { limit: '64kb', anyContentType: true, strict: false },
  paths: { caseSensitive: true, strict: true },
  prelude: authenticate,
  routes,
  unmatched: (req) => {
    if (req.method !== 'POST') return undefined;
    const product = Object.entries(UNSERVED_PRODUCT_PATHS).find(([prefix]) => req.path.startsWith(prefix))?.[1];
    return product === undefined ? undefined : unservedProduct(product);
  },
  errors: {
    answer: (error, req) => {
      const retryAfter = retryAfterOf(error);
      return toAnswer(fromDomain(error), req.id, retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) });
    },
    bodyRefused: (req) => toAnswer(plaidErrors.invalidBody(), req.id),
    notFound: (req) => toAnswer(plaidErrors.notFound(), req.id),
    rateLimited: (req, headers) => toAnswer(plaidErrors.rateLimited(headers['Retry-After']), req.id, headers),
    schema: PlaidErrorSchema,
    statuses: { default: "Plaid's error shape" },
  },
};
