/** Free-text input fields. PostgreSQL text and jsonb cannot hold U+0000, so it is refused up front (400, not 500). */
import { z } from 'zod';

const NUL = '\u0000';
const CONTROL = /\p{Cc}/u;

/** Text of at most `max` characters without U+0000 (newlines and tabs are fine). */
export const textSchema = (max: number) =>
  z
    .string()
    .max(max)
    .refine((value) => !value.includes(NUL), 'Must not contain U+0000');

/** A single-line name: trimmed, 1–`max` characters, no control characters. */
export const nameSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL.test(value), 'Must not contain control characters');
