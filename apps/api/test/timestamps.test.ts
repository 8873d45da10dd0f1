/**
 * Timestamps leave the API as ISO 8601 UTC with milliseconds. Rows arrive as PostgreSQL's text;
 * `isoTimestamp` rewrites a UTC session's form (`2026-11-21 10:15:30.123456+00`) without a Date.
 * It must agree with what a Date would say (milliseconds truncated, not rounded) on every instant,
 * and the pooled sessions must be UTC (and plan hot statements generically) for that form to arrive.
 */
import { isoTimestamp } from '@sandbank/core';
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('runs every pooled session in UTC, with generic plans for the prepared hot statements', async () => {
  const { rows } = await app.db.query(`select current_setting('TimeZone') as zone, current_setting('plan_cache_mode') as mode`);
  expect(rows[0]).toEqual({ zone: 'UTC', mode: 'force_generic_plan' });
});

it("writes PostgreSQL's timestamps as Date#toISOString does, to the millisecond, truncated", async () => {
  // Instants from 1970 to 9999 with microseconds, including whole seconds and whole milliseconds.
  const instants = fc.sample(
    fc.tuple(fc.integer({ min: 0, max: 253_402_300_799 }), fc.constantFrom(0, 1, 7, 999_999, 120_000, 500_000, 123_456)),
    1_000,
  );
  const written = instants.map(([seconds, micros]) => {
    const base = new Date(seconds * 1000).toISOString().slice(0, 19);
    return `${base}.${String(micros).padStart(6, '0')}Z`;
  });
  const { rows } = await app.db.query<{ text: string }>('select unnest($1::timestamptz[])::text as text', [written]);
  expect(rows).toHaveLength(written.length);
  rows.forEach(({ text }, i) => {
    expect(text.endsWith('+00'), text).toBe(true);
    expect(isoTimestamp(text), text).toBe(new Date(text).toISOString());
    expect(isoTimestamp(text), text).toBe(`${written[i]?.slice(0, 23)}Z`);
  });
});

it('converts any other form through a Date', () => {
  expect(isoTimestamp('2026-03-29 03:30:00.25+02')).toBe('2026-03-29T01:30:00.250Z');
  expect(isoTimestamp('2026-03-29 01:30:00+05:30')).toBe('2026-03-28T20:00:00.000Z');
  expect(isoTimestamp(new Date('2026-11-21T10:15:30.123Z'))).toBe('2026-11-21T10:15:30.123Z');
});
