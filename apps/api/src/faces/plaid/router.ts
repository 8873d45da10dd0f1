/**
 * The Plaid face's HTTP layer at /plaid (docs/faces/plaid.md): every endpoint is a POST of JSON, answered in
 * Plaid's shapes and errors. The steps, in Plaid's order of checks: the body parses as a JSON object
 * (INVALID_BODY), the credentials are present and are this user's (MISSING_FIELDS,
 * INVALID_API_KEYS), the credential's rate limit (RATE_LIMIT_EXCEEDED), the body's shape
 * (UNKNOWN_FIELDS, INVALID_FIELD), the Item of the access token (INVALID_ACCESS_TOKEN,
 * ITEM_NOT_FOUND, ITEM_LOGIN_REQUIRED). The work is the domain's; the endpoints are in endpoints.ts.
 */
import {
  authenticatePlaid,
  consumePoint,
  type Deps,
  findItem,
  type PlaidItem,
  READ_AFTER_HEADER,
  readOnReplica,
  retryAfterOf,
  withFamilyShare,
} from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import type { InFlight } from '../../http/in-flight.ts';
import { BODY_ERROR_TYPES, jsonBody } from '../../http/json-body.ts';
import { type Endpoint, endpoint } from './endpoint.ts';
import { endpoints } from './endpoints.ts';
import { fromDomain, type PlaidError, plaidErrors, requestError, sendPlaidError } from './errors.ts';
import { UNSERVED_PRODUCT_PATHS } from './products.ts';

const unservedProductOf = (path: string): string | undefined =>
  Object.entries(UNSERVED_PRODUCT_PATHS).find(([prefix]) => path.startsWith(prefix))?.[1];

/** Any body (Plaid's own fields differ per product), refused once the caller is known. */
const unservedProduct = (product: string): Endpoint =>
  endpoint(z.looseObject({}), undefined, async () => {
    throw plaidErrors.productsNotSupported(product);
  });

const header = (req: Request, name: string) => {
  const value = req.headers[name];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

async function answer(deps: Deps, endpoint: Endpoint, req: Request, res: Response): Promise<void> {
  const raw: unknown = req.body;
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw plaidErrors.invalidBody();
  const body = raw as Record<string, unknown>;
  const asText = (value: unknown) => (typeof value === 'string' && value.length > 0 ? value : undefined);
  const clientId = header(req, 'plaid-client-id') ?? asText(body.client_id);
  const secret = header(req, 'plaid-secret') ?? asText(body.secret);
  const missing = [...(clientId ? [] : ['client_id']), ...(secret ? [] : ['secret'])];
  if (!clientId || !secret) throw plaidErrors.missingFields(missing);
  const em = deps.orm.em.fork();
  const credential =
    clientId.length <= 64 && secret.length <= 256 ? await authenticatePlaid(em, deps.config, { clientId, secret }) : null;
  if (!credential) throw plaidErrors.invalidApiKeys();
  if (deps.rateLimits) {
    const outcome = await consumePoint(deps.rateLimits.apiKey, `plaid:${credential.keyId}`);
    res.set(outcome.headers);
    if (!outcome.allowed) throw plaidErrors.rateLimited(outcome.headers['Retry-After']);
  }
  const parsed = endpoint.schema.safeParse(body);
  if (!parsed.success) throw requestError(parsed.error);
  const input = parsed.data as Record<string, unknown>;
  const readAfter = req.get(READ_AFTER_HEADER);
  const result = await withFamilyShare(deps, em, credential.userId, () =>
    run(deps, em, endpoint, { userId: credential.userId, readAfter }, input),
  );
  res.status(200).json({ ...result, request_id: req.id });
}

/** The endpoint's work for the caller, past authentication, the rate limit and the body's shape. */
async function run(
  deps: Deps,
  em: EntityManager,
  endpoint: Endpoint,
  { userId, readAfter }: { userId: string; readAfter: string | undefined },
  input: Record<string, unknown>,
) {
  let item: PlaidItem | null = null;
  if (endpoint.item) {
    item = await findItem(em, { userId, accessToken: String(input.access_token) });
    if (!item) throw plaidErrors.invalidAccessToken();
    if (item.removed) throw plaidErrors.itemNotFound();
    if (endpoint.item === 'usable' && item.state === 'login_required') throw plaidErrors.itemLoginRequired();
  }
  const work = (readEm: EntityManager) => endpoint.run({ deps, em: readEm, userId, body: input, item: item as PlaidItem });
  return endpoint.reads ? readOnReplica(deps.readRouting, em, { caller: userId, readAfter }, work) : work(em);
}

export function plaidRouter(deps: Deps, inFlight: InFlight): Router {
  const router = express.Router({ caseSensitive: true, strict: true });
  // Plaid's SDK sends JSON; any content type is read as JSON, as Plaid's API does. Its depth is
  // bounded like every body of the host (http/json-body.ts).
  router.use(jsonBody({ limit: '64kb', type: () => true, strict: false }));
  const fail = (req: Request, res: Response, error: unknown) => {
    const plaid = fromDomain(error);
    if (plaid.status === 500) req.log.error({ err: error }, 'Plaid face: unexpected error');
    const retryAfter = retryAfterOf(error);
    if (retryAfter !== undefined) res.set('Retry-After', String(retryAfter));
    sendPlaidError(res, plaid, req.id);
  };
  for (const [path, endpoint] of Object.entries(endpoints)) {
    router.post(path, (req, res) => {
      inFlight.track(answer(deps, endpoint, req, res)).catch((error: unknown) => fail(req, res, error));
    });
  }
  // A path of a product Sandbank does not serve: PRODUCTS_NOT_SUPPORTED naming it, after the credentials' checks.
  router.post(/.*/, (req, res, next) => {
    const product = unservedProductOf(req.path);
    if (!product) return next();
    inFlight.track(answer(deps, unservedProduct(product), req, res)).catch((error: unknown) => fail(req, res, error));
  });
  router.use((req, res) => sendPlaidError(res, plaidErrors.notFound(), req.id));
  // Body parser failures (bad JSON, too large, too deep, not UTF-8): Plaid's INVALID_BODY.
  router.use((error: { type?: string }, req: Request, res: Response, _next: NextFunction) => {
    if (error.type !== undefined && BODY_ERROR_TYPES.has(error.type)) {
      sendPlaidError(res, plaidErrors.invalidBody() as PlaidError, req.id);
      return;
    }
    fail(req, res, error);
  });
  return router;
}

/** The per-IP limit's refusal on the face's paths, in Plaid's shape. */
export function plaidRateLimited(req: Request, res: Response, headers: Record<string, string>): void {
  sendPlaidError(res, plaidErrors.rateLimited(headers['Retry-After']), req.id, headers);
}
