/** Opaque cursors (src/lib/cursor.ts): what a client hands back decodes to what was issued, and nothing else does. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../src/errors.ts';
import { CursorInputSchema, decodeCursor, encodeCursor, Int8TextSchema } from '../src/lib/cursor.ts';

const Payload = z.object({ v: z.literal(1), t: Int8TextSchema, s: Int8TextSchema }).strict();

function refusal(raw: string): AppError {
  try {
    decodeCursor(Payload, raw, 'cursor');
  } catch (error) {
    return error as AppError;
  }
  throw new Error(`${raw} was accepted`);
}

describe('cursors', () => {
  it('round-trips a payload, 64-bit positions included, as URL-safe text', () => {
    const payload = { v: 1 as const, t: '9223372036854775807', s: '0' };
    const cursor = encodeCursor(payload);
    expect(cursor).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(Payload, cursor, 'cursor')).toEqual(payload);
    expect(CursorInputSchema.safeParse(cursor).success).toBe(true);
  });

  it.each([
    ['not base64url', 'abc+/='],
    ['not JSON', Buffer.from('{"v":1,').toString('base64url')],
    ['another version', encodeCursor({ v: 2, t: '1', s: '1' })],
    ['a position past int8', encodeCursor({ v: 1, t: '9223372036854775808', s: '1' })],
    ['a negative position', encodeCursor({ v: 1, t: '-1', s: '1' })],
    ['a position as a number', encodeCursor({ v: 1, t: 1, s: '1' })],
    ['an extra field', encodeCursor({ v: 1, t: '1', s: '1', admin: true })],
    ['nested too deep', encodeCursor({ v: 1, t: '1', s: '1', x: [[[[[1]]]]] })],
    ['empty', ''],
  ])('refuses %s with 400 VALIDATION_ERROR at the field', (_why, raw) => {
    const error = refusal(raw);
    expect(error).toBeInstanceOf(AppError);
    expect(error.appCode).toBe('VALIDATION_ERROR');
    expect(error.details).toEqual([{ path: 'cursor', message: expect.stringMatching(/Malformed cursor/) }]);
  });

  it('bounds what the query field takes', () => {
    expect(CursorInputSchema.safeParse('').success).toBe(false);
    expect(CursorInputSchema.safeParse('a'.repeat(513)).success).toBe(false);
  });
});
