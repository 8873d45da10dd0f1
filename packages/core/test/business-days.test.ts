import { describe, expect, it } from 'vitest';
import {
  businessDayOnOrAfter,
  businessDayOnOrBefore,
  holidaysOf,
  isBusinessDay,
  nextBusinessDay,
} from '../src/lib/business-days.ts';

describe('business days', () => {
  it('skips Polish public holidays the library knows, weekends and statutory newcomers', () => {
    expect(isBusinessDay('PL', '2026-11-11')).toBe(false); // Independence Day, a Wednesday
    expect(isBusinessDay('PL', '2026-05-04')).toBe(true); // 3 May falls on a Sunday in 2026
    expect(isBusinessDay('PL', '2027-05-03')).toBe(false);
    expect(isBusinessDay('PL', '2026-04-06')).toBe(false); // Easter Monday
    expect(isBusinessDay('PL', '2026-12-24')).toBe(false); // a holiday since 2025
    expect(nextBusinessDay('PL', '2026-11-10')).toBe('2026-11-12');
    expect(nextBusinessDay('PL', '2026-11-27')).toBe('2026-11-30'); // Friday → Monday
    expect(holidaysOf('PL', 2026).map((holiday) => holiday.day)).toContain('2026-06-04'); // Corpus Christi
  });

  it('runs SEPA on TARGET closing days, which differ from Poland', () => {
    expect(isBusinessDay('TARGET', '2026-04-03')).toBe(false); // Good Friday: TARGET closed, Poland works
    expect(isBusinessDay('PL', '2026-04-03')).toBe(true);
    expect(isBusinessDay('TARGET', '2026-11-11')).toBe(true); // a Polish holiday only
    expect(isBusinessDay('TARGET', '2026-05-01')).toBe(false);
    expect(businessDayOnOrAfter('TARGET', '2026-04-03')).toBe('2026-04-07');
    expect(businessDayOnOrBefore('TARGET', '2026-04-06')).toBe('2026-04-02');
    expect(businessDayOnOrBefore('TARGET', '2026-11-29')).toBe('2026-11-27'); // Sunday keeps Friday
  });
});
