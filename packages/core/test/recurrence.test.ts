/** Schedules' recurrence rules (src/domain/schedules/recurrence.ts): RFC 5545 rules in a time zone, refused when unusable. */
import { describe, expect, it } from 'vitest';
import { recurrence, recurrenceProblem } from '../src/domain/schedules/recurrence.ts';

const at = (iso: string) => new Date(iso);
const WARSAW = 'Europe/Warsaw';

describe('a recurrence', () => {
  it('keeps the local hour across both DST changes (monthly salary at 09:00 in Warsaw)', () => {
    const rule = recurrence('FREQ=MONTHLY;BYMONTHDAY=10;BYHOUR=9;BYMINUTE=0;BYSECOND=0', WARSAW, at('2027-01-01T00:00:00Z'));
    const march = rule.next(at('2027-03-01T00:00:00Z'), true);
    const april = rule.next(at('2027-04-01T00:00:00Z'), true);
    const november = rule.next(at('2027-11-01T00:00:00Z'), true);
    expect(march?.toISOString()).toBe('2027-03-10T08:00:00.000Z'); // CET
    expect(april?.toISOString()).toBe('2027-04-10T07:00:00.000Z'); // CEST
    expect(november?.toISOString()).toBe('2027-11-10T08:00:00.000Z');
  });

  it('finds the next occurrence inclusively or not, and counts before, through and between', () => {
    const rule = recurrence('FREQ=DAILY;BYHOUR=12;BYMINUTE=0;BYSECOND=0', 'UTC', at('2027-01-01T00:00:00Z'));
    const noon = at('2027-01-03T12:00:00Z');
    expect(rule.next(noon, true)?.toISOString()).toBe('2027-01-03T12:00:00.000Z');
    expect(rule.next(noon, false)?.toISOString()).toBe('2027-01-04T12:00:00.000Z');
    expect(rule.countBefore(noon)).toBe(2);
    expect(rule.countThrough(noon, 100)).toBe(3);
    expect(rule.countBetween(at('2027-01-02T00:00:00Z'), noon, 100)).toBe(2);
    // Counting stops past max: enough to tell "more than max" without walking two years of days.
    expect(rule.countThrough(at('2029-01-01T00:00:00Z'), 10)).toBe(11);
  });

  it('ends when the rule does', () => {
    const rule = recurrence('FREQ=WEEKLY;COUNT=2', 'UTC', at('2027-01-01T10:00:00Z'));
    expect(rule.next(at('2027-01-08T10:00:00Z'), false)).toBeNull();
  });
});

describe('a rule that is refused', () => {
  it.each([
    ['FREQ=HOURLY', 'rrule', /DAILY, WEEKLY, MONTHLY or YEARLY/],
    ['FREQ=MINUTELY;INTERVAL=5', 'rrule', /DAILY, WEEKLY, MONTHLY or YEARLY/],
    ['NOT A RULE', 'rrule', /RFC 5545/],
    ['FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30', 'rrule', /never occurs/],
  ])('%s', (text, field, message) => {
    expect(recurrenceProblem(text, 'UTC', at('2027-01-01T00:00:00Z'))).toEqual({
      field,
      message: expect.stringMatching(message),
    });
  });

  it('names an unknown time zone', () => {
    expect(recurrenceProblem('FREQ=DAILY', 'Mars/Olympus', at('2027-01-01T00:00:00Z'))).toEqual({
      field: 'timezone',
      message: 'Unknown time zone Mars/Olympus',
    });
  });

  it('takes a usable one', () => {
    expect(recurrenceProblem('FREQ=MONTHLY;BYMONTHDAY=-1', WARSAW, at('2027-01-01T00:00:00Z'))).toBeNull();
  });
});
