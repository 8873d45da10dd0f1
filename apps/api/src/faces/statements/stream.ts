/**
 * A statement route's answer: the file streamed to the response, from the replica when it may
 * (DATABASE_READ_URL). Errors before the file begins are in our JSON contract; after, they can only
 * cut it short.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { askPrimaryAgain } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import iconv from 'iconv-lite';
import { openStatementFile, withStatementSlot } from './file.ts';
import { parse, type StatementCall } from './input.ts';
import { AccountIdSchema, StatementQuerySchema } from './wire.ts';

type StatementQuery = ReturnType<typeof StatementQuerySchema.parse>;

/**
 * The route's answer: the statement from the replica `readEm` (DATABASE_READ_URL), or from the
 * primary `em` when the replica does not have what was asked yet, or failed before the file began
 * (askPrimaryAgain).
 */
export async function sendStatementRead(call: StatementCall): Promise<void> {
  const { em, readEm } = call;
  if (readEm === em) return sendStatement(call, em);
  try {
    await sendStatement(call, readEm);
  } catch (error) {
    if (call.res.headersSent || !askPrimaryAgain(error)) throw error;
    if (call.deps.readRouting) call.deps.readRouting.counts.askedAgain++;
    await sendStatement(call, em);
  }
}

async function sendStatement(call: StatementCall, em: EntityManager): Promise<void> {
  const accountId = parse(AccountIdSchema, call.req.params.id, 'id');
  const query = parse(StatementQuerySchema, call.req.query, '');
  await withStatementSlot(call.deps, () => streamStatement(call, em, { userId: call.userId, accountId, query }));
}

async function streamStatement(
  { req, res }: StatementCall,
  em: EntityManager,
  { userId, accountId, query }: { userId: string; accountId: string; query: StatementQuery },
): Promise<void> {
  // Errors up to here (404, 422, 400) are in our JSON contract; from here the file streams.
  const file = await openStatementFile(em, { userId, accountId, query });
  let started = false;
  try {
    res.status(200);
    res.set({
      'Content-Type': file.contentType,
      'Content-Disposition': `attachment; filename="${file.name}"`,
      'Cache-Control': 'no-store',
    });
    const text = Readable.from(file.text);
    started = true;
    await (file.encoding === 'utf-8' ? pipeline(text, res) : pipeline(text, iconv.encodeStream(file.encoding), res));
  } catch (error) {
    if (!started) throw error;
    // Once the file has begun, an error can only cut it short; a client that went away is no error.
    if (!res.destroyed) res.destroy(error instanceof Error ? error : undefined);
    if (!isPrematureClose(error)) req.log?.error({ err: error }, 'statement stream failed');
  } finally {
    await file.close();
  }
}

const isPrematureClose = (error: unknown) => (error as { code?: string } | null)?.code === 'ERR_STREAM_PREMATURE_CLOSE';
