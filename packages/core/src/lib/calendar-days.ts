/**
 * Calendar days as `YYYY-MM-DD` text, with no zone: what a statement's period and an account's
 * balance history are counted in (each area applies its own zone and its own limit).
 */
import { z } from 'zod';

const DAY_MS = 86_400_000;

/** A calendar day, `YYYY-MM-DD`, that exists. */
export const CalendarDaySchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected YYYY-MM-DD')
  // zod runs this after a failed regex too: an unparsable text must fail here, not throw (toISOString of an Invalid Date).
  .refine((value) => {
    const time = Date.parse(`${value}T00:00:00Z`);
    return !Number.isNaN(time) && new Date(time).toISOString().startsWith(value);
  }, 'Not a calendar day')
  .refine((value) => value >= '1970-01-01' && value <= '9999-12-30', 'Out of range');

/** The days between two `YYYY-MM-DD` dates, both counted. */
export const daysBetween = (from: string, to: string) => Math.round((Date.parse(to) - Date.parse(from)) / DAY_MS) + 1;
