/**
 * Time-ordered ids (UUID v7, RFC 9562) from the `uuid` package, with the random bytes drawn from
 * a pool refilled 256 ids at a time: `uuid`'s own v7 calls WebCrypto's getRandomValues for every
 * id, ~4 µs per id against ~1 µs pooled (a simulated transaction takes three ids).
 *
 * Passing `random` makes `uuid` skip its own monotonic state, so the state is kept here the same
 * way (RFC 9562 §6.2 method 1: a counter seeded from the random bytes each new millisecond,
 * incremented within one, carrying into the timestamp): ids of one process stay strictly ordered.
 */
import { randomFillSync } from 'node:crypto';
import { v7 } from 'uuid';

const BYTES_PER_ID = 16;
const pool = Buffer.alloc(BYTES_PER_ID * 256);
let next = pool.length;
let msecs = Number.NEGATIVE_INFINITY;
let seq = 0;

export function uuidv7(): string {
  if (next === pool.length) {
    randomFillSync(pool);
    next = 0;
  }
  const random = pool.subarray(next, next + BYTES_PER_ID);
  next += BYTES_PER_ID;
  const now = Date.now();
  if (now > msecs) {
    // 31 random bits, as uuid's v7Sequence takes them.
    seq = (((random[6] ?? 0) & 0x7f) << 24) | ((random[7] ?? 0) << 16) | ((random[8] ?? 0) << 8) | (random[9] ?? 0);
    msecs = now;
  } else {
    seq = (seq + 1) | 0;
    if (seq === 0) msecs++;
  }
  return v7({ random, msecs, seq });
}
