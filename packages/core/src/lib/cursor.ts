/**
 * Opaque cursors: base64url of a small versioned JSON payload. Clients must treat them as
 * strings to hand back; the version field lets the payload change without breaking old cursors
 * silently (an unknown version is 400 like any malformed cursor).
 */
import { z } from 'zod';
import { AppError } from '../errors.ts';
import { parseJsonWithin } from './json-depth.ts';

const MAX_INT8 = 2n ** 63n - 1n;

/** A non-negative 64-bit integer as decimal text: xid8 and bigint positions never lose precision in JSON. */
export const Int8TextSchema = z.string().refine((value) => /^\d{1,19}$/.test(value) && BigInt(value) <= MAX_INT8);

/** The query field a cursor arrives in: opaque text, bounded. */
export const CursorInputSchema = z.string().min(1).max(512).meta({
  description: 'Opaque: pass back the `nextCursor` of an earlier answer',
  example: 'eyJ2IjoxLCJ0IjoiNzQ1IiwicyI6IjEyIn0',
});

export function encodeCursor(payload: object): string {
  return Buffer.from(JSON.stringify(payload)).toString('base64url');
}

/** The cursor's payload, or 400 VALIDATION_ERROR at `path` if it is not one this API issued. */
export function decodeCursor<T>(schema: z.ZodType<T>, raw: string, path: string): T {
  const malformed = () =>
    new AppError('VALIDATION_ERROR', 'The cursor is not valid', {
      details: [{ path, message: 'Malformed cursor: pass back a nextCursor exactly as it was returned' }],
    });
  if (!/^[A-Za-z0-9_-]+$/.test(raw)) throw malformed();
  let json: unknown;
  try {
    json = parseJsonWithin(Buffer.from(raw, 'base64url').toString('utf8'), 4);
  } catch {
    throw malformed();
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw malformed();
  return parsed.data;
}
