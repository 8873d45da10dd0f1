/**
 * Free-text input fields. Every procedure's input already passes the storable-text rule
 * (lib/storable-text.ts: no U+0000, no lone surrogate); these schemas repeat it so the rule holds
 * for domain callers that parse with them directly, and so OpenAPI shows the bounds.
 */
import { z } from 'zod';
import { isStorable } from './storable-text.ts';

const CONTROL = /\p{Cc}/u;

/** Text of at most `max` characters without U+0000 (newlines and tabs are fine). */
export const textSchema = (max: number) =>
  z.string().max(max).refine(isStorable, 'Must not contain U+0000 or a lone UTF-16 surrogate');

/** A single-line name: trimmed, 1–`max` characters, no control characters. */
export const nameSchema = (max: number) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .refine((value) => !CONTROL.test(value), 'Must not contain control characters');
