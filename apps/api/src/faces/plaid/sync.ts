/**
 * A `/transactions/sync` page within `count` updates (added + modified + removed), as Plaid promises.
 * The domain pages by transactions, and a transaction that went pending → posted inside a page is two
 * updates in Plaid (the posted one added, the pending id removed). So the page is read again with
 * fewer transactions until its updates fit. With `count: 1` a lone pair cannot fit: its posted half
 * is sent and its removal is owed to the next page, carried in the cursor after a `.` (a domain cursor
 * is base64url and has none): `<domain cursor>.<base64url JSON { r: [[id, account]], m: has_more }>`.
 * The owed removals come first in the next page, so no update is skipped or repeated.
 */
import { type PlaidItem, syncItem } from '@sandbank/core';
import type { EntityManager } from '@sandbank/db';
import { z } from 'zod';
import { plaidErrors } from './errors.ts';
import { toPlaidSyncChanges } from './mapping.ts';

const OwedSchema = z.strictObject({
  r: z
    .array(z.tuple([z.string().max(128), z.string().max(64)]))
    .min(1)
    .max(1),
  m: z.boolean(),
});

type Removed = { transaction_id: string; account_id: string };

function splitCursor(cursor: string | undefined): { domain: string | undefined; owed: Removed[]; hasMore: boolean } {
  const dot = cursor?.indexOf('.') ?? -1;
  if (!cursor || dot < 0) return { domain: cursor || undefined, owed: [], hasMore: false };
  let owed: z.infer<typeof OwedSchema>;
  try {
    owed = OwedSchema.parse(JSON.parse(Buffer.from(cursor.slice(dot + 1), 'base64url').toString('utf8')));
  } catch {
    throw plaidErrors.invalidField('cursor is not valid: pass back a next_cursor exactly as it was returned');
  }
  const owedRemovals = owed.r.map(([transaction_id, account_id]) => ({ transaction_id, account_id }));
  return { domain: cursor.slice(0, dot), owed: owedRemovals, hasMore: owed.m };
}

const owingCursor = (domain: string, owed: Removed[], hasMore: boolean) =>
  `${domain}.${Buffer.from(JSON.stringify({ r: owed.map((removed) => [removed.transaction_id, removed.account_id]), m: hasMore })).toString('base64url')}`;

export interface PlaidSyncPage {
  changes: ReturnType<typeof toPlaidSyncChanges>;
  nextCursor: string;
  hasMore: boolean;
}

export async function readPlaidSyncPage(
  em: EntityManager,
  {
    item,
    cursor,
    count,
    includeOriginalDescription,
  }: { item: PlaidItem; cursor: string | undefined; count: number; includeOriginalDescription: boolean },
): Promise<PlaidSyncPage> {
  const start = splitCursor(cursor);
  // Removals owed by the last page come first (count ≥ 1 and at most one is owed, so they fit).
  if (start.owed.length > 0 && start.domain) {
    return {
      changes: { added: [], modified: [], removed: start.owed },
      nextCursor: start.domain,
      hasMore: start.hasMore,
    };
  }
  let limit = count;
  for (;;) {
    const synced = await syncItem(em, { item, cursor: start.domain, limit });
    const changes = toPlaidSyncChanges(
      { ...synced.page, postedInPage: synced.postedInPage, postedFromPending: synced.postedFromPending },
      includeOriginalDescription,
    );
    const size = changes.added.length + changes.modified.length + changes.removed.length;
    const page = { changes, nextCursor: synced.page.nextCursor, hasMore: synced.page.hasMore };
    if (size <= count) return page;
    if (limit > 1) {
      limit = Math.max(1, Math.min(limit - 1, limit - (size - count)));
      continue;
    }
    // One transaction, two updates, count 1: its posted half now, its removal next.
    const owed = changes.removed.splice(count - changes.added.length - changes.modified.length);
    return { changes, nextCursor: owingCursor(synced.page.nextCursor, owed, synced.page.hasMore), hasMore: true };
  }
}
