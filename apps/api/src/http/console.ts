/**
 * `/console`: the web console (apps/console), built by Vite into hashed files. Hashed assets
 * are cached for a year; the page itself is never cached so a new build shows at once. Any
 * other path under /console is the single-page app's (its router decides). The CSP allows
 * only this origin's scripts, styles and fetches: the build has no inline script or style.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { AppError, toErrorBody } from '@sandbank/core';
import express, { type Request, type Response, Router } from 'express';
import helmet from 'helmet';
import { sendError } from './errors.ts';

/** apps/console/dist, beside this app in the repo (the build step writes it; see docs/reference/console.md). */
const CONSOLE_DIST = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../console/dist');

const CONSOLE_CSP_DIRECTIVES = {
  defaultSrc: ["'none'"],
  scriptSrc: ["'self'"],
  styleSrc: ["'self'"],
  imgSrc: ["'self'"],
  connectSrc: ["'self'"],
  manifestSrc: ["'self'"],
  baseUri: ["'self'"],
  formAction: ["'self'"],
  frameAncestors: ["'none'"],
  objectSrc: ["'none'"],
};

export function consoleRouter(options: { upgradeInsecureRequests: boolean; dist?: string }): Router {
  const dist = options.dist ?? CONSOLE_DIST;
  const router = Router();
  router.use(
    helmet.contentSecurityPolicy({
      useDefaults: false,
      directives: { ...CONSOLE_CSP_DIRECTIVES, upgradeInsecureRequests: options.upgradeInsecureRequests ? [] : null },
    }),
  );
  router.use(
    '/assets',
    express.static(path.join(dist, 'assets'), { index: false, immutable: true, maxAge: '365d', fallthrough: true }),
  );
  // A missing asset is a 404, never the page (a stale tab must not run HTML as a script).
  router.use('/assets', (req: Request, res: Response) => {
    sendError(res, toErrorBody(new AppError('NOT_FOUND', `No route for ${req.method} ${req.originalUrl}`), req.id));
  });
  router.use(express.static(dist, { index: false, maxAge: '1h' }));
  router.get('/{*path}', (req: Request, res: Response) => {
    const page = path.join(dist, 'index.html');
    if (!existsSync(page)) {
      const message = 'The console is not built: run `pnpm install` (it builds it) or `pnpm --filter @sandbank/console build`';
      sendError(res, toErrorBody(new AppError('SERVICE_UNAVAILABLE', message), req.id));
      return;
    }
    res.setHeader('Cache-Control', 'no-cache');
    res.sendFile('index.html', { root: dist });
  });
  return router;
}
