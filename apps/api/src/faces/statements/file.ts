/**
 * One statement file, opened: its name, type, encoding and text (a page of entries at a time, from
 * one snapshot), for the face's routes to stream and the MCP tool to read. The statement's first
 * page is read before this returns, so what goes wrong up to there (404, 422, a period refused) is
 * still an error in our contract; after, the text can only end short.
 */
import { openStatement } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { FORMATS, type FormatName } from './formats.ts';
import type { StatementQuerySchema } from './query.ts';
import { fileNamePart } from './wire.ts';

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
