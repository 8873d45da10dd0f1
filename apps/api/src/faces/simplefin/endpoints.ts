/**
 * The SimpleFIN face's routes (docs/faces/simplefin.md): `GET /info`, `POST /claim/:code`,
 * `GET /accounts`. A claim answers the access URL as text/plain; the bodies are the protocol's
 * (mapping.ts). The work is the domain's (claimSetupToken, readAccountSet). Each route's document
 * entry is written out (`doc`): the protocol's answers are plain text, and every one carries the
 * RateLimit-* headers — the per-IP limit's, or the credential's on GET /accounts.
 */
import { AppError, claimSetupToken, limitHeader, RESPONSE_HEADERS, readAccountSet, withFamilyShare } from '@sandbank/core';
import { z } from 'zod';
import { type Call, type FaceRoute, readWorld } from '../kit.ts';
import { sfErrors } from './errors.ts';
import {
  CLAIM_CODE_PATTERN,
  claimCode,
  FLAG_VALUES,
  parseAccountsQuery,
  type SimplefinCall,
  SUPPORTED_VERSIONS,
  UNIX_SECONDS_PATTERN,
  VERSION_VALUES,
} from './input.ts';
import { toAccountSet } from './mapping.ts';
import { AccessUrlSchema, AccountSetV1Schema, AccountSetV2Schema, InfoSchema } from './wire.ts';

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

export const routes: Record<string, FaceRoute<SimplefinCall>> = {
  'get /info': {
    summary: 'The protocol versions this server supports',
    public: true,
    response: InfoSchema,
    doc: (json) => ({
      operationId: 'getInfo',
      tags: ['simplefin'],
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
    }),
    run: async () => ({ versions: SUPPORTED_VERSIONS }),
  },
  'post /claim/:code': {
    summary: 'Claim the access URL of a setup token (once)',
    public: true,
    response: AccessUrlSchema,
    doc: () => ({
      operationId: 'claimAccessUrl',
      tags: ['simplefin'],
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
    }),
    run: async (call: Call) => {
      const code = claimCode(call);
      const { config } = call.deps;
      // Over the API-key limit the app gets no key: the claim fails like any other (403), and says why in the log.
      const accessUrl = await claimSetupToken(call.em, {
        code,
        publicUrl: config.http.publicUrl,
        apiKeyLimit: config.limits.apiKeys,
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.appCode === 'LIMIT_EXCEEDED') {
          call.req.log.warn({ reason: error.message }, 'SimpleFIN claim refused: API key limit');
          return null;
        }
        throw error;
      });
      if (!accessUrl) throw sfErrors.forbidden();
      call.res.status(200).type('text/plain').send(accessUrl);
    },
  },
  'get /accounts': {
    summary: 'The Account Set: every account of the user with its balances and transactions',
    response: z.union([AccountSetV1Schema, AccountSetV2Schema]),
    doc: (json) => ({
      operationId: 'getAccounts',
      tags: ['simplefin'],
      description:
        'Balances are as of the world’s clock (`balance-date`). Transactions are those whose date is in [start-date, end-date), oldest first, at most 10,000 per account (the newest; the body’s errors say when more were left out).',
      security: [{ accessUrl: [] }],
      parameters: [
        unixSeconds('start-date', 'Transactions dated on or after it (Unix seconds; a fraction is honoured to the millisecond)'),
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
          content: { 'application/json': { schema: { anyOf: [json(AccountSetV1Schema), json(AccountSetV2Schema)] } } },
        },
        '400': text(
          'A malformed start-date or end-date, or an unknown version (the message says which)',
          'start-date must be a Unix timestamp in seconds',
          RESPONSE_HEADERS,
        ),
        '403': forbidden('Missing, malformed, unknown or revoked credentials, or another user’s'),
        '429': tooMany('Too many requests from this IP or for this credential'),
      },
    }),
    run: async (call) => {
      const { version, ...query } = parseAccountsQuery(call.req.query);
      const { userId } = call.credential;
      const set = await withFamilyShare(call.deps, call.em, userId, () =>
        readWorld(call, userId, (readEm) => readAccountSet(readEm, { userId, ...query })),
      );
      return toAccountSet(set, { userId, version, publicUrl: call.deps.config.http.publicUrl });
    },
  },
};
