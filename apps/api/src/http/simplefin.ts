/**
 * The SimpleFIN protocol (docs/faces/simplefin.md) at /simplefin: `POST /claim/:code`, `GET /accounts`, `GET /info`.
 * These routes follow the protocol, not the JSON error contract: a claim answers the access URL
 * as text/plain, bad credentials and used or unknown codes are a bare 403, and the bodies are the
 * protocol's. The work is the domain's (claimSetupToken, authenticateSimplefin, buildAccountSet);
 * this file only speaks HTTP. Rate limited per credential with the API-key bucket.
 */
import { AppError, authenticateSimplefin, buildAccountSet, claimSetupToken, consumePoint, type Deps } from '@sandbank/core';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { InFlight } from './in-flight.ts';

const SUPPORTED_VERSIONS = ['1.0', '2.0'];

function forbidden(res: Response): void {
  res.status(403).type('text/plain').send('Forbidden');
}

function badRequest(res: Response, message: string): void {
  res.status(400).type('text/plain').send(message);
}

/**
 * A Unix timestamp in seconds (clients may send a fraction) as an instant; undefined when absent,
 * null when malformed. Rounded up to the millisecond our dates have, which keeps both bounds exact:
 * a date is on or after `start` and before `end` exactly when it is so against the rounded value.
 * At most 11 digits (year 5138), so every instant stays a plain ISO timestamp.
 */
function unixInstant(value: unknown): Date | undefined | null {
  if (value === undefined) return undefined;
  const match = typeof value === 'string' ? /^(\d{1,11})(?:\.(\d+))?$/.exec(value) : null;
  if (!match) return null;
  const fraction = match[2] ?? '';
  const ms = Number(match[1]) * 1000 + Number(fraction.slice(0, 3).padEnd(3, '0'));
  return new Date(/[1-9]/.test(fraction.slice(3)) ? ms + 1 : ms);
}

/** `version` of GET /accounts: the protocol's query parameter (1 when absent; the server picks the default). */
const VERSIONS = new Map<unknown, 1 | 2>([
  ['1', 1],
  ['1.0', 1],
  ['2', 2],
  ['2.0', 2],
]);

const flag = (value: unknown) => value === '1' || value === 'true';

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
      const from = unixInstant(req.query['start-date']);
      const before = unixInstant(req.query['end-date']);
      if (from === null) return badRequest(res, 'start-date must be a Unix timestamp in seconds');
      if (before === null) return badRequest(res, 'end-date must be a Unix timestamp in seconds');
      const version = req.query.version === undefined ? 1 : VERSIONS.get(req.query.version);
      if (!version) return badRequest(res, `version must be one of ${SUPPORTED_VERSIONS.join(', ')}`);
      const account = req.query.account;
      const accountIds = (Array.isArray(account) ? account : account === undefined ? [] : [account]).map(String);
      res.json(
        await buildAccountSet(em, {
          userId: credential.userId,
          from,
          before,
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
