/**
 * One statement file, opened: its name, type, encoding and text (a page of entries at a time, from
 * one snapshot), for the face's routes to stream (stream.ts) and the MCP tool to read. The
 * statement's first page is read before this returns, so what goes wrong up to there (404, 422, a
 * period refused) is still an error in our contract; after, the text can only end short.
 */
import { AppError, type Deps, openStatement } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { FORMATS, type FormatName } from './formats.ts';
import { fileNamePart } from './mapping.ts';
import type { StatementQuerySchema } from './wire.ts';

type StatementQuery = ReturnType<typeof StatementQuerySchema.parse>;

export interface StatementFile {
  name: string;
  contentType: string;
  /** iconv-lite's name of the file's encoding (only MT940 may ask for another than UTF-8). */
  encoding: string;
  text: AsyncIterable<string>;
  /** Ends the statement's snapshot; call it once the text is read, or abandoned. */
  close(): Promise<void>;
}

export async function openStatementFile(
  em: EntityManager,
  { userId, accountId, query }: { userId: string; accountId: string; query: StatementQuery },
): Promise<StatementFile> {
  const format = FORMATS[query.format as FormatName];
  const reader = await openStatement(em, {
    userId,
    accountId,
    from: query.from,
    to: query.to,
    withPending: 'withPending' in format,
  });
  try {
    const { head } = reader;
    const pages = reader.pages();
    const first = await pages.next(); // the cursor's first page: a failure here is still an error in our contract
    async function* entries() {
      if (first.done) return;
      yield first.value;
      yield* pages;
    }
    const { from, to } = head.period;
    return {
      name: `sandbank-${fileNamePart(head.account.iban)}-${from}-${to}-${fileNamePart(query.format)}.${format.extension}`,
      contentType: format.contentType(query),
      encoding: 'encoding' in format ? format.encoding(query) : 'utf-8',
      text: format.write({ head, pages: entries(), pending: reader.pending }, query),
      close: () => reader.close(),
    };
  } catch (error) {
    await reader.close();
    throw error;
  }
}

/**
 * How many statements one process writes at once, over REST and MCP together: each holds a database
 * connection (its snapshot) for as long as its client reads, so a quarter of the pool at most, leaving
 * the rest to every other request. One more is refused (429, `Retry-After`), never queued behind slow readers.
 */
const writing = new WeakMap<object, { open: number }>();

export async function withStatementSlot<T>(deps: Pick<Deps, 'orm' | 'config'>, work: () => Promise<T>): Promise<T> {
  const limit = Math.max(1, Math.floor(deps.config.database.poolSize / 4));
  const streams = writing.get(deps.orm) ?? { open: 0 };
  writing.set(deps.orm, streams);
  if (streams.open >= limit) {
    throw new AppError('RATE_LIMITED', `${limit} statements are being written at once here; retry in a few seconds`, {
      retryAfterSeconds: 2,
    });
  }
  streams.open += 1;
  try {
    return await work();
  } finally {
    streams.open -= 1;
  }
}
