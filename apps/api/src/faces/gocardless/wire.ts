/**
 * The face's requests in GoCardless's own field names (zod). Objects are not strict: GoCardless's API
 * ignores fields it does not know, and nordigen-node sends some (`ssn: null`, `redirect_immediate`).
 * Every string has a length bound and every number a range.
 */

import { ACCESS_SCOPES, LocalDaySchema } from '@sandbank/core';
import { z } from 'zod';

/** A whole number, as JSON sends it or as a short decimal string (GoCardless's forms accept both). */
const wholeNumber = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number),
]);

export const TokenNewSchema = z.object({
  secret_id: z.string().min(1).max(64),
  secret_key: z.string().min(1).max(256),
});

export const TokenRefreshSchema = z.object({ refresh: z.string().min(1).max(4096) });

export const AgreementSchema = z.object({
  institution_id: z.string().min(1).max(100),
  max_historical_days: wholeNumber.pipe(z.number().int().min(1).max(730)).default(90),
  access_valid_for_days: wholeNumber.pipe(z.number().int().min(1).max(180)).default(90),
  access_scope: z
    .array(z.enum(ACCESS_SCOPES))
    .min(1)
    .max(3)
    .default([...ACCESS_SCOPES]),
  reconfirmation: z.boolean().optional(),
});

export const RequisitionSchema = z.object({
  // A URL parser drops tabs and line breaks silently: refused here, and the URL stored as it parses.
  redirect: z
    .string()
    .max(1024)
    .refine((value) => ![...value].some((char) => char < ' ' || char === '\u007f'), 'Must not contain control characters')
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((value) => new URL(value).href),
  institution_id: z.string().min(1).max(100),
  agreement: z.uuid().optional(),
  reference: z.string().min(1).max(256).optional(),
  user_language: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .optional(),
  ssn: z.string().max(64).nullable().optional(),
  account_selection: z.boolean().optional(),
  redirect_immediate: z.boolean().optional(),
});

export const PageQuerySchema = z.object({
  limit: wholeNumber.pipe(z.number().int().min(1).max(100)).default(100),
  offset: wholeNumber.pipe(z.number().int().min(0).max(1_000_000)).default(0),
});

const Day = LocalDaySchema;

export const TransactionsQuerySchema = z.object({
  date_from: Day.optional(),
  date_to: Day.optional(),
  country: z.string().max(2).optional(),
});

export const IdSchema = z.uuid();
