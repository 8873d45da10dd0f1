/**
 * The SimpleFIN face (docs/faces/simplefin.md) at /simplefin, on the face kit: `GET /accounts` is
 * authenticated by the access URL's credentials (HTTP Basic: the user id and a SimpleFIN API key),
 * then counted against the API-key rate limit; `GET /info` and `POST /claim/:code` are public.
 * Errors in SimpleFIN's plain-text shape (errors.ts); the routes are in endpoints.ts.
 */
import { authenticateSimplefin } from '@sandbank/core';
import { type Call, chargeCredential, type FaceDefinition } from '../kit.ts';
import { routes } from './endpoints.ts';
import { fromDomain, sfErrors, toAnswer } from './errors.ts';
import { type SimplefinCall, SUPPORTED_VERSIONS } from './input.ts';

async function authenticate(call: Call): Promise<SimplefinCall> {
  const credential = await authenticateSimplefin(call.em, call.deps.config, call.req.headers.authorization);
  if (!credential) throw sfErrors.forbidden();
  await chargeCredential(call, `simplefin:${credential.keyId}`, () => sfErrors.tooManyRequests());
  return { ...call, credential };
}

export const simplefinFace: FaceDefinition<SimplefinCall> = {
  name: 'simplefin',
  basePath: '/simplefin',
  info: {
    title: 'Sandbank — the SimpleFIN face',
    version: SUPPORTED_VERSIONS.join(', '),
    description:
      'The SimpleFIN Protocol (1.0, and the 2.0 draft with version=2) over a Sandbank world, for budgeting apps such as Actual Budget. A connection starts with a setup token from the main API (POST /v1/simplefin/setup-token): base64 of a claim URL; claiming it answers the access URL, whose user and password are the credentials of GET /accounts. Errors are the protocol’s: plain text, a bare 403 for any bad credential or claim. Money is a decimal string with two decimals; times are Unix seconds. See docs/faces/simplefin.md.',
    license: { name: 'MIT', identifier: 'MIT' },
  },
  securityScheme: {
    type: 'http',
    scheme: 'basic',
    description: 'The user and password of the access URL: the user id and a SimpleFIN API key (no character needs escaping).',
  },
  document: {
    schemeName: 'accessUrl',
    server: { 'x-internal': false },
    tags: [{ name: 'simplefin', description: 'The SimpleFIN Protocol' }],
  },
  // No body is read (a claim has none); paths match as Express's defaults do.
  paths: { caseSensitive: false, strict: false },
  prelude: authenticate,
  routes,
  errors: {
    answer: (error) => {
      const wire = fromDomain(error);
      return wire && toAnswer(wire);
    },
    bodyRefused: () => toAnswer(sfErrors.badRequest('The body could not be read')),
    rateLimited: (_req, headers) => toAnswer(sfErrors.tooManyRequests(headers)),
  },
};
