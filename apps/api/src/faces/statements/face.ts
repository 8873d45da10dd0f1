/**
 * The statement face (docs/faces/statements.md) on the face kit: a bank statement file of one account
 * for a period, in the format asked for, at two doors mounted at the site's root —
 * `GET /v1/accounts/:id/statement` with the user's access token (the face's prelude) and
 * `GET /api/owner/:owner/accounts/:id/statement` with an API key (that route's own prelude). Each runs
 * within the world's family share and streams the file itself (stream.ts). Errors before the file
 * begins are in our JSON contract (errors.ts); unknown paths go on to the host's other routes.
 */
import { withFamilyShare } from '@sandbank/core';
import type { FaceDefinition } from '../kit.ts';
import { routes } from './endpoints.ts';
import { fromDomain, stErrors, toAnswer } from './errors.ts';
import { byAccessToken, type StatementCall } from './input.ts';

export const statementsFace: FaceDefinition<StatementCall> = {
  name: 'statements',
  basePath: '',
  info: {
    title: 'Sandbank statements face',
    version: '1.0.0',
    description: 'Bank statement files of a Sandbank account: camt.053, camt.052, MT940, OFX, CSV. See docs/faces/statements.md.',
  },
  securityScheme: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'A user access token: an HS256 JWT handled per RFC8725 (as in the main API document).',
  },
  document: {
    schemeName: 'userToken',
    schemes: { apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'API key' } },
    server: { 'x-internal': false },
    tags: [{ name: 'statements', description: 'Statement files' }],
  },
  // No body is read; paths match as Express's defaults do.
  paths: { caseSensitive: false, strict: false },
  prelude: byAccessToken,
  within: (call, work) => withFamilyShare(call.deps, call.em, call.userId, work),
  routes,
  errors: {
    answer: (error, req) => {
      const ours = fromDomain(error);
      return ours && toAnswer(ours, req);
    },
    bodyRefused: (req) => toAnswer(stErrors.invalidBody(), req),
    rateLimited: (req, headers) => toAnswer(stErrors.rateLimited(headers['Retry-After']), req, headers),
  },
};
