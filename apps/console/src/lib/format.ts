/**
 * How the console shows money and time: one locale for both, pl-PL (the sandbox is a Polish bank:
 * złoty, Polish dates), whatever the browser's language; times in the reader's time zone.
 */

const LOCALE = 'pl-PL';
const pln = new Intl.NumberFormat(LOCALE, { style: 'currency', currency: 'PLN' });
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' });

/** 12345 → "123,45 zł". Minor units are integers, so dividing by 100 is exact enough to display. */
export function formatMoney(minorUnits: number): string {
  return pln.format(minorUnits / 100);
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

/**
 * What a person types ("12,50", "-1 234.5", "7") → minor units, or undefined when it is not an
 * amount with at most two decimals. Parsed as text, never through floating point.
 */
export function parseAmount(text: string): number | undefined {
  const match = /^([+-]?)(\d{1,13})(?:[.,](\d{1,2}))?$/.exec(text.replace(/[\s\u00a0]/g, ''));
  if (!match) return undefined;
  const [, sign, whole = '0', fraction = ''] = match;
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '-' ? -minor : minor;
}

/** A datetime-local value ("2026-11-22T10:15") in the reader's time zone → ISO with offset Z. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

const moneyCompact = new Intl.NumberFormat(LOCALE, {
  style: 'currency',
  currency: 'PLN',
  notation: 'compact',
  maximumFractionDigits: 1,
});
/** 1234567 → "12,3 tys. zł": for a chart's axis, where full amounts do not fit. */
export function formatMoneyCompact(minorUnits: number): string {
  return moneyCompact.format(minorUnits / 100);
}

// A world day (`YYYY-MM-DD`, already local to Europe/Warsaw) is a calendar date: read and shown in UTC so no zone moves it.
const dayLong = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });
const dayShort = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "2026-11-26" → "26 lis 2026". */
export function formatDay(day: string): string {
  return dayLong.format(new Date(`${day}T00:00:00Z`));
}

/** "2026-11-26" → "26 lis" (a chart's axis). */
export function formatDayShort(day: string): string {
  return dayShort.format(new Date(`${day}T00:00:00Z`));
}
