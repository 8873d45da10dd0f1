/**
 * The transactions' `continuation_key` (docs/faces/enablebanking.md): opaque to the app, at most 512
 * characters. base64url of a small JSON — the pinned period and filter, and the last entry the next page
 * follows — then `.` and a signature: HMAC-SHA256, truncated to 128 bits, under a key derived from the
 * server's JWT secret, over the session, the account uid and the payload. A key edited by hand, made
 * up, or taken to another session's account is not one of ours.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { PagePosition } from '@sandbank/core';
import { z } from 'zod';
import { ebErrors } from './errors.ts';
import type { DayPlace } from './mapping.ts';

/** A timestamptz as PostgreSQL prints it (`2026-11-29 17:45:15.123456+00`). */
const Timestamp = z.string().regex(/^[0-9][0-9 :.+\-T]{9,39}$/);

const Position = z.discriminatedUnion('k', [
  z.strictObject({
    k: z.literal('B'),
    p: Timestamp,
    i: z.uuid(),
    /** The booked balance after the entry, minor units. */
    b: z.string().regex(/^-?[0-9]{1,19}$/),
    /** Its booking day and 1-based place in it (the personalities' dated ids). */
    d: z.iso.date(),
    n: z.number().int().min(1).max(10_000_000),
  }),
  z.strictObject({ k: z.literal('P'), p: Timestamp, i: z.uuid() }),
]);

const KeySchema = z.strictObject({
  f: z.iso.date(),
  t: z.iso.date(),
  /** The `date_to` asked for, when it was after the day the period was pinned to (`t`). */
  q: z.iso.date().optional(),
  s: z.enum(['BOOK', 'PDNG', 'ALL']),
  /** The last entry of the page before; absent on the first page. */
  a: Position.optional(),
});
export type Key = z.infer<typeof KeySchema>;
export type WirePosition = z.infer<typeof Position>;

/** Who a key belongs to: the session and the account uid it was issued for. */
export interface KeyOwner {
  sessionId: string;
  uid: string;
}

const derived = new WeakMap<Uint8Array, Buffer>();

function signingKey(secret: Uint8Array): Buffer {
  let key = derived.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('sandbank enablebanking continuation_key v1').digest();
    derived.set(secret, key);
  }
  return key;
}

const signatureOf = (secret: Uint8Array, owner: KeyOwner, body: string) =>
  createHmac('sha256', signingKey(secret)).update(`${owner.sessionId}:${owner.uid}:${body}`).digest().subarray(0, 16);

export function encodeKey(key: Key, owner: KeyOwner, secret: Uint8Array): string {
  const body = Buffer.from(JSON.stringify(key)).toString('base64url');
  return `${body}.${signatureOf(secret, owner, body).toString('base64url')}`;
}

/** The key's content, or 422 `WRONG_CONTINUATION_KEY` when it is not one this owner was given. */
export function decodeKey(text: string, owner: KeyOwner, secret: Uint8Array): Key {
  const [body, signature, ...rest] = text.split('.');
  if (!body || !signature || rest.length > 0) throw ebErrors.wrongContinuationKey();
  const given = Buffer.from(signature, 'base64url');
  const expected = signatureOf(secret, owner, body);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) throw ebErrors.wrongContinuationKey();
  try {
    return KeySchema.parse(JSON.parse(Buffer.from(body, 'base64url').toString('utf8')));
  } catch {
    throw ebErrors.wrongContinuationKey();
  }
}

/** The key's position as the domain reads it. */
export function positionOf(wire: WirePosition | undefined): PagePosition | null {
  if (!wire) return null;
  return wire.k === 'B'
    ? { phase: 'booked', postedAt: wire.p, id: wire.i, balance: BigInt(wire.b) }
    : { phase: 'pending', date: wire.p, id: wire.i };
}

/** A page's last entry as the next key carries it (a booked one with its day place). */
export function wirePositionOf(position: PagePosition, place: DayPlace | null): WirePosition {
  if (position.phase === 'pending') return { k: 'P', p: position.date, i: position.id };
  if (!place) throw new Error('A booked position needs its day place');
  return { k: 'B', p: position.postedAt, i: position.id, b: position.balance.toString(), d: place.day, n: place.place };
}
