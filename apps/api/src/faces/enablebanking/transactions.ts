/**
 * `GET /accounts/{uid}/transactions`: the account's booked entries (oldest posting first) then its
 * pending ones, for whole Warsaw days `date_from`…`date_to` of the world's clock, at most 100 a page.
 * `continuation_key` names the next page: the period and the filter it was issued for (pinned, so a
 * clock advance between pages does not move the period) and how many entries came before; it is
 * refused (`WRONG_CONTINUATION_KEY`) when it is not one of ours or the query names another period.
 * Booked entries are ordered by posting, so the pages of a period do not shift as new ones post.
 */
import {
  MAX_STATEMENT_DAYS,
  openStatement,
  type PendingEntry,
  type SessionAccountAccess,
  type StatementEntry,
} from '@sandbank/core';
import { z } from 'zod';
import { quirksOf } from './aspsps.ts';
import { ebErrors } from './errors.ts';
import { addDays, type DayPlace, localDate, toBookedWire, toPendingWire, withQuirks } from './mapping.ts';
import type { TransactionsQuery } from './wire.ts';

const PAGE_SIZE = 100;
/** Without `date_from`: the last 90 days. */
const DEFAULT_DAYS = 90;

const KeySchema = z.strictObject({
  f: z.iso.date(),
  t: z.iso.date(),
  /** The `date_to` asked for, when it was after the day the period was pinned to (`t`). */
  q: z.iso.date().optional(),
  s: z.enum(['BOOK', 'PDNG', 'ALL']),
  o: z.number().int().min(0).max(10_000_000),
});
type Key = z.infer<typeof KeySchema>;

const encodeKey = (key: Key) => Buffer.from(JSON.stringify(key)).toString('base64url');

function decodeKey(text: string): Key {
  try {
    return KeySchema.parse(JSON.parse(Buffer.from(text, 'base64url').toString('utf8')));
  } catch {
    throw ebErrors.wrongContinuationKey();
  }
}

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The period and the filter of the page asked for and how many entries precede it; null for a status Sandbank never has. */
function pageOf(query: z.infer<typeof TransactionsQuery>, today: string): Key | null {
  const wanted = query.transaction_status;
  const status = wanted === 'BOOK' || wanted === 'PDNG' ? wanted : wanted === undefined ? 'ALL' : null;
  if (query.continuation_key !== undefined) {
    const key = decodeKey(query.continuation_key);
    // A parameter sent again must name the key's period and filter; one left out takes the key's.
    const differs =
      (query.date_from !== undefined && query.date_from !== key.f) ||
      (query.date_to !== undefined && query.date_to !== (key.q ?? key.t)) ||
      (wanted !== undefined && status !== key.s);
    if (differs) throw ebErrors.wrongContinuationKey();
    return key;
  }
  if (query.date_to !== undefined && query.date_from === undefined) throw ebErrors.dateToWithoutFrom();
  const from = query.date_from ?? addDays(today, 1 - DEFAULT_DAYS);
  if (from > today) throw ebErrors.dateFromInFuture();
  const to = query.date_to === undefined || query.date_to > today ? today : query.date_to;
  if (query.date_to !== undefined && from > query.date_to) throw ebErrors.wrongInterval();
  if (daysBetween(from, to) + 1 > MAX_STATEMENT_DAYS)
    throw ebErrors.wrongPeriod(`At most ${MAX_STATEMENT_DAYS} days (date_from ${from}, date_to ${to})`);
  // A status Sandbank never has (HOLD, SCHD, …) is an empty page.
  if (status === null) return null;
  return {
    f: from,
    t: to,
    ...(query.date_to !== undefined && query.date_to !== to ? { q: query.date_to } : {}),
    s: status,
    o: 0,
  };
}

/** One page of the account's transactions and the key of the next one (absent on the last page). */
export async function transactionsPage(
  em: Parameters<typeof openStatement>[0],
  account: SessionAccountAccess,
  query: z.infer<typeof TransactionsQuery>,
) {
  const key = pageOf(query, localDate(account.now));
  if (!key) return { transactions: [] };
  const reader = await openStatement(em, {
    userId: account.userId,
    accountId: account.accountId,
    from: key.f,
    to: key.t,
    withPending: key.s !== 'BOOK',
  });
  // One more than a page, to know whether another follows.
  const wanted = key.o + PAGE_SIZE + 1;
  const booked: { entry: StatementEntry; at: DayPlace }[] = [];
  // Every entry of the period is read from its start, so an entry's place in its booking day is the same on any page.
  const places = new Map<string, number>();
  let seen = 0;
  try {
    if (key.s !== 'PDNG') {
      for await (const page of reader.pages()) {
        for (const entry of page) {
          const place = (places.get(entry.bookingDate) ?? 0) + 1;
          places.set(entry.bookingDate, place);
          if (seen >= key.o && seen < wanted) booked.push({ entry, at: { day: entry.bookingDate, place } });
          seen++;
        }
        if (seen >= wanted) break;
      }
    }
  } finally {
    await reader.close();
  }
  const pending: PendingEntry[] = reader.pending.slice(Math.max(0, key.o - seen), Math.max(0, wanted - seen));
  const { currency } = reader.head.account;
  const quirks = quirksOf(account.aspsp);
  const all = [
    ...booked.map(({ entry, at }) => withQuirks(toBookedWire(currency, entry), quirks, at)),
    ...pending.map((entry) => withQuirks(toPendingWire(currency, entry), quirks)),
  ];
  const more = all.length > PAGE_SIZE;
  return {
    transactions: all.slice(0, PAGE_SIZE),
    ...(more ? { continuation_key: encodeKey({ ...key, o: key.o + PAGE_SIZE }) } : {}),
  };
}
