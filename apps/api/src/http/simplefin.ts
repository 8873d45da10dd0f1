/**
 * The SimpleFIN protocol (SPEC §9) at /simplefin: `POST /claim/:code`, `GET /accounts`, `GET /info`.
 * These routes follow the protocol, not the JSON error contract: a claim answers the access URL
 * as text/plain, bad credentials and used or unknown codes are a bare 403, and the bodies are the
 * protocol's. The work is the domain's (claimSetupToken, authenticateSimplefin, buildAccountSet);
 * this file only speaks HTTP. Rate limited per credential with the API-key bucket.
 */
import { AppError, authenticateSimplefin, buildAccountSet, claimSetupToken, consumePoint, type Deps } from '@sandbank/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';

const SUPPORTED_VERSIONS = ['1.0', '2.0'];

function forbidden(res: Response): void {
  res.status(403).type('text/plain').send('Forbidden');
}

function badRequest(res: Response, message: string): void {
  res.status(400).type('text/plain').send(message);
}

/** A Unix timestamp in seconds (clients may send a fraction); undefined when absent. */
function unixSeconds(value: unknown): number | undefined | null {
  if (value === undefined) return undefined;
  if (typeof value !== 'string' || !/^\d{1,12}(\.\d+)?$/.test(value)) return null;
  return Math.floor(Number(value));
}

const flag = (value: unknown) => value === '1' || value === 'true';

export function simplefinRouter(deps: Deps): Router {
  const router = express.Router();
  const { config, orm } = deps;
  const wrap = (handler: (req: Request, res: Response) => Promise<void>) => (req: Request, res: Response, next: NextFunction) => {
    handler(req, res).catch(next);
  };

  router.get('/info', (_req, res) => {
    res.json({ versions: SUPPORTED_VERSIONS });
  });

  router.post(
    '/claim/:code',
    wrap(async (req, res) => {
      const code = String(req.params.code ?? '');
      if (!/^[A-Za-z0-9_-]{16,128}$/.test(code)) return forbidden(res);
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
        if (!outcome.allowed) {
          res.status(429).type('text/plain').send('Too many requests');
          return;
        }
      }
      const startDate = unixSeconds(req.query['start-date']);
      const endDate = unixSeconds(req.query['end-date']);
      if (startDate === null) return badRequest(res, 'start-date must be a Unix timestamp in seconds');
      if (endDate === null) return badRequest(res, 'end-date must be a Unix timestamp in seconds');
      const account = req.query.account;
      const accountIds = (Array.isArray(account) ? account : account === undefined ? [] : [account]).map(String);
      const version = req.query.version === '2' || req.query.version === '2.0' ? 2 : 1;
      res.json(
        await buildAccountSet(em, {
          userId: credential.userId,
          startDate,
          endDate,
          pending: flag(req.query.pending),
          accountIds,
          balancesOnly: flag(req.query['balances-only']),
          version,
          publicUrl: config.http.publicUrl,
        }),
      );
    }),
  );
  return router;
}
