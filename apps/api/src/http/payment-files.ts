/**
 * Payment files over HTTP (docs/guides/payment-files.md): the one exception to
 * JSON bodies. `POST /v1/payment-files` takes the pain.001 itself (`Content-Type: application/xml`,
 * at most the reader's 10 MiB) and answers JSON; `GET /v1/payment-files/:id/status-report` is the
 * pain.002.001.10 and `GET /v1/accounts/:id/notifications?format=camt.054&from&to` the
 * camt.054.001.08, both XML. Each with the user's access token; another user's file or account is
 * 404. The work is the domain's (packages/core/src/domain/payment-files/files.ts); errors are in the
 * JSON contract.
 */
import {
  AppError,
  accountNotifications,
  authenticateAccessToken,
  bearerToken,
  type Deps,
  PAIN001_BOUNDS,
  paymentFileStatusReport,
  statusOf,
  toErrorBody,
  uploadPaymentFile,
  withFamilyShare,
} from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { TRPCError } from '@trpc/server';
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import { z } from 'zod';
import { errorHeaders, sendError } from './errors.ts';
import type { InFlight } from './in-flight.ts';

const XML_TYPES = ['application/xml', 'text/xml'];
const IdSchema = z.uuid();
const NotificationQuerySchema = z.strictObject({
  format: z.literal('camt.054', 'Expected format=camt.054'),
  from: z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time with an offset' }),
  to: z.iso.datetime({ offset: true, error: 'Expected an ISO 8601 date-time with an offset' }),
});

/** The metrics label of a payment-file route (ids never become label values), or undefined. */
export function paymentFileRouteLabel(path: string): string | undefined {
  if (path === '/v1/payment-files') return path;
  if (/^\/v1\/payment-files\/[^/]+\/status-report$/.test(path)) return '/v1/payment-files/{id}/status-report';
  if (/^\/v1\/accounts\/[^/]+\/notifications$/.test(path)) return '/v1/accounts/{id}/notifications';
  return undefined;
}

const invalid = (path: string, message: string) =>
  new AppError('VALIDATION_ERROR', `Invalid ${path}: ${message}`, { details: [{ path, message }] });

export function paymentFilesRouter(deps: Deps, inFlight: InFlight): Router {
  const router = express.Router();
  /** The handler with the caller authenticated by access token, within its family's share of the process (family-shares.ts). */
  const wrap =
    (handler: (req: Request, res: Response, caller: { em: EntityManager; userId: string }) => Promise<void>) =>
    (req: Request, res: Response, next: NextFunction) => {
      const run = async () => {
        const token = bearerToken(req.headers.authorization);
        if (!token) throw new AppError('UNAUTHENTICATED', 'A bearer access token is required');
        const em = deps.orm.em.fork();
        const userId = (await authenticateAccessToken(em, deps, token)).id;
        await withFamilyShare(deps, em, userId, () => handler(req, res, { em, userId }));
      };
      inFlight.track(run()).catch((error: unknown) => {
        if (error instanceof AppError || error instanceof TRPCError) {
          const body = toErrorBody(error, req.id);
          sendError(res, body, errorHeaders(error, statusOf(body), {}));
        } else next(error);
      });
    };
  const sendXml = (res: Response, name: string, xml: string) => {
    res.status(200).set({
      'Content-Type': 'application/xml; charset=utf-8',
      'Content-Disposition': `attachment; filename="${name}"`,
      'Cache-Control': 'no-store',
    });
    res.send(xml);
  };
  router.post(
    '/v1/payment-files',
    // Authenticated before the body is read: a stranger's 10 MiB is never buffered.
    wrap(async (req, res, caller) => {
      if (!req.is(XML_TYPES)) {
        throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'The body is the pain.001 file itself: Content-Type: application/xml');
      }
      const body = await readBody(req);
      const uploaded = await uploadPaymentFile(caller.em, caller.userId, body);
      res.status(201).json({ data: uploaded });
    }),
  );

  router.get(
    '/v1/payment-files/:id/status-report',
    wrap(async (req, res, caller) => {
      const id = IdSchema.safeParse(req.params.id);
      if (!id.success) throw invalid('id', 'Expected a payment file id (UUID)');
      const xml = await paymentFileStatusReport(caller.em, caller.userId, id.data);
      sendXml(res, `pain.002-${id.data}.xml`, xml);
    }),
  );

  router.get(
    '/v1/accounts/:id/notifications',
    wrap(async (req, res, caller) => {
      const id = IdSchema.safeParse(req.params.id);
      if (!id.success) throw invalid('id', 'Expected an account id (UUID)');
      const query = NotificationQuerySchema.safeParse(req.query);
      if (!query.success) {
        const details = query.error.issues.map((issue) => ({ path: issue.path.join('.') || '(query)', message: issue.message }));
        throw new AppError('VALIDATION_ERROR', `Invalid query: ${details.map((d) => `${d.path}: ${d.message}`).join('; ')}`, {
          details,
        });
      }
      const xml = await accountNotifications(caller.em, {
        userId: caller.userId,
        accountId: id.data,
        from: new Date(query.data.from),
        to: new Date(query.data.to),
      });
      sendXml(res, `camt.054-${id.data}.xml`, xml);
    }),
  );
  return router;
}

/** The raw body, at most the reader's bound: past it, 413 before the rest is read. */
async function readBody(req: Request): Promise<Uint8Array> {
  const limit = PAIN001_BOUNDS.maxBytes;
  const declared = Number(req.get('content-length'));
  if (Number.isFinite(declared) && declared > limit) throw tooLarge(limit);
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      req.resume();
      throw tooLarge(limit);
    }
    chunks.push(chunk);
  }
  if (size === 0) throw new AppError('VALIDATION_ERROR', 'The body is empty: send the pain.001 file itself');
  return Buffer.concat(chunks);
}

const tooLarge = (limit: number) => new AppError('PAYLOAD_TOO_LARGE', `A payment file is at most ${limit / 1024 / 1024} MiB`);
