/** Timestamps as the API writes them. */

/**
 * ISO 8601 UTC with milliseconds, as `Date#toISOString` writes it. Timestamps arrive as PostgreSQL's
 * text; in a UTC session (every pooled session is one) that is `2026-11-21 10:15:30.123456+00`
 * (fraction optional, trailing zeros dropped), rewritten here without a Date: parsing that
 * non-ISO form was 8 % of the API's CPU on a history page (bench/README.md, "Reads"). Anything
 * else goes through a Date.
 */
export function isoTimestamp(value: Date | string): string {
  if (typeof value === 'string' && value[10] === ' ' && value.endsWith('+00')) {
    const fraction = value[19] === '.' ? value.slice(20, -3) : '';
    if (value.length === (fraction ? 23 + fraction.length : 22)) {
      return `${value.slice(0, 10)}T${value.slice(11, 19)}.${`${fraction}000`.slice(0, 3)}Z`;
    }
  }
  return new Date(value).toISOString();
}
