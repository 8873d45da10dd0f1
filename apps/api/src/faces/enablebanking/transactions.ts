/**
 * `GET /accounts/{uid}/transactions`: the account's booked entries (oldest posting first) then its
 * pending ones, for whole Warsaw days `date_from`…`date_to` of the world's clock, at most 100 a page.
 * `continuation_key` names the next page: the period and the filter it was issued for (pinned, so a
 * clock advance between pages does not move the period) and the last entry it follows — a booked
 * entry's (posted_at, id) with the balance after it and its place in its booking day, or a pending
 * entry's (date, id) — so each page is one index range however deep it is (transaction-pages.ts).
 * The key is signed (HMAC-SHA256 under a key derived from the server's JWT secret) over the session and
 * the account uid it was issued for; it is refused (`WRONG_CONTINUATION_KEY`) when it is not one of ours,
 * was issued for another session's account, or the query names another period or filter. Booked entries
 * are ordered by posting, so the pages of a period do not shift as new ones post.
 */
import { MAX_STATEMENT_DAYS, readTransactionPage, type SessionAccountAccess } from '@sandbank/core';
import type { z } from 'zod';
import { quirksOf } from './aspsps.ts';
import { decodeKey, encodeKey, type Key, type KeyOwner, positionOf, wirePositionOf } from './continuation-key.ts';
import { ebErrors } from './errors.ts';
import { addDays, type DayPlace, localDate, toBookedWire, toPendingWire, withQuirks } from './mapping.ts';
import type { TransactionsQuery } from './wire.ts';

const PAGE_SIZE = 100;
/** Without `date_from`: the last 90 days. */
const DEFAULT_DAYS = 90;

const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / 86_400_000);

/** The period and the filter of the page asked for and the entry it follows; null for a status Sandbank never has. */
function pageOf(query: z.infer<typeof TransactionsQuery>, today: string, owner: KeyOwner, secret: Uint8Array): Key | null {
  const wanted = query.transaction_status;
  const status = wanted === 'BOOK' || wanted === 'PDNG' ? wanted : wanted === undefined ? 'ALL' : null;
  if (query.continuation_key !== undefined) {
    const key = decodeKey(query.continuation_key, owner, secret);
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
  };
}

/** One page of the account's transactions and the key of the next one (absent on the last page). */
export async function transactionsPage(
  em: Parameters<typeof readTransactionPage>[0],
  account: SessionAccountAccess,
  query: z.infer<typeof TransactionsQuery>,
  secret: Uint8Array,
) {
  const owner = { sessionId: account.sessionId, uid: account.uid };
  const key = pageOf(query, localDate(account.now), owner, secret);
  if (!key) return { transactions: [] };
  // One more than a page, to know whether another follows.
  const entries = await readTransactionPage(em, {
    accountId: account.accountId,
    from: key.f,
    to: key.t,
    booked: key.s !== 'PDNG',
    pending: key.s !== 'BOOK',
    after: positionOf(key.a),
    limit: PAGE_SIZE + 1,
  });
  const quirks = quirksOf(account.aspsp);
  // A booked entry's place in its booking day continues from the key's, so it is the same on any page.
  let place: DayPlace | null = key.a?.k === 'B' ? { day: key.a.d, place: key.a.n } : null;
  const page = entries.slice(0, PAGE_SIZE);
  const transactions = page.map((item) => {
    if (item.status === 'pending') return withQuirks(toPendingWire(account.currency, item.entry), quirks);
    const day = item.entry.bookingDate;
    place = { day, place: place?.day === day ? place.place + 1 : 1 };
    return withQuirks(toBookedWire(account.currency, item.entry), quirks, place);
  });
  const last = page.at(-1);
  if (entries.length <= PAGE_SIZE || !last) return { transactions };
  const next: Key = { ...key, a: wirePositionOf(last.position, place) };
  return { transactions, continuation_key: encodeKey(next, owner, secret) };
}
