/**
 * The SimpleFIN face (docs/faces/simplefin.md) at /simplefin: `POST /claim/:code`, `GET /accounts`,
 * `GET /info`. These routes follow the protocol, not our JSON error contract (errors.ts): a claim
 * answers the access URL as text/plain, bad credentials and used or unknown codes are a bare 403,
 * and the bodies are the protocol's (mapping.ts). The work is the domain's (claimSetupToken,
 * authenticateSimplefin, readAccountSet); this file only speaks HTTP. Rate limited per credential
 * with the API-key bucket. Described by /faces/simplefin/openapi.json (openapi.ts).
 */
import {
  AppError,
  authenticateSimplefin,
  claimSetupToken,
  consumePoint,
  type Deps,
  readAccountSet,
  withFamilyShare,
} from '@sandbank/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { InFlight } from '../../http/in-flight.ts';
import { readWorld } from '../kit.ts';
import { badRequest, forbidden, tooManyRequests } from './errors.ts';
import { toAccountSet } from './mapping.ts';
import { parseAccountsQuery, SUPPORTED_VERSIONS } from './query.ts';

/** A claim code as issued (256 random bits, base64url); anything else is refused before the database. */
export const CLAIM_CODE_PATTERN = '^[A-Za-z0-9_-]{16,128}$';
const CLAIM_CODE = new RegExp(CLAIM_CODE_PATTERN);

export function simplefinRouter(deps: Deps, inFlight: InFlight): Router {
  const router = express.Router();
  const { config, orm } = deps;
  const wrap = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
    inFlight.track(handler(req, res)).catch(next);
  };

  router.get('/info', (_req, res) => {
    res.json({ versions: SUPPORTED_VERSIONS });
  });

  router.post(
    '/claim/:code',
    wrap(async (req, res) => {
      const code = String(req.params.code ?? '');
      if (!CLAIM_CODE.test(code)) return forbidden(res);
      // Over the API-key limit the app gets no key: the claim fails like any other (403), and says why in the log.
      const accessUrl = await claimSetupToken(orm.em.fork(), {
        code,
        publicUrl: config.http.publicUrl,
        apiKeyLimit: config.limits.apiKeys,
      }).catch((error: unknown) => {
        if (error instanceof AppError && error.appCode === 'LIMIT_EXCEEDED') {
          req.log.warn({ reason: error.message }, 'SimpleFIN claim refused: API key limit');
          return null;
        }
        throw error;
      });
      if (!accessUrl) return forbidden(res);
      res.status(200).type('text/plain').send(accessUrl);
    }),
  );

  router.get(
    '/accounts',
    wrap(async (req, res) => {
      const em = orm.em.fork();
      const credential = await authenticateSimplefin(em, config, req.headers.authorization);
      if (!credential) return forbidden(res);
      if (deps.rateLimits) {
        const outcome = await consumePoint(deps.rateLimits.apiKey, `simplefin:${credential.keyId}`);
        res.set(outcome.headers);
        if (!outcome.allowed) return tooManyRequests(res);
      }
      const parsed = parseAccountsQuery(req.query);
      if ('error' in parsed) return badRequest(res, parsed.error);
      const { version, ...query } = parsed.query;
      const set = await withFamilyShare(deps, em, credential.userId, () =>
        readWorld({ deps, em, req, res }, credential.userId, (readEm) =>
          readAccountSet(readEm, { userId: credential.userId, ...query }),
        ),
      ).catch((error: unknown) => {
        // The family's share of the process was not free in time: the protocol's 429.
        if (error instanceof AppError && error.appCode === 'RATE_LIMITED') return null;
        throw error;
      });
      if (!set) {
        res.set('Retry-After', '1');
        return tooManyRequests(res);
      }
      res.json(toAccountSet(set, { userId: credential.userId, version, publicUrl: config.http.publicUrl }));
    }),
  );
  return router;
}
