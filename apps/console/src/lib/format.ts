/**
 * How the console shows money, numbers and time: every figure and date on a page goes through this
 * module, in one locale, en-GB, whatever the browser's language. The console speaks English, so its
 * dates do too ("29 Nov 2026, 09:15": day before month as in Poland, a 24-hour clock, the month
 * named, so a date never reads two ways beside a browser's `mm/dd/yyyy` date input); money is written
 * in its own currency as English writes it ("PLN 1,234.56", "JPY 1,235", "KWD 1.234"). Times are in the
 * reader's time zone; world days (`YYYY-MM-DD`) are calendar dates and no zone moves them.
 */

/** The console's one locale (docs/reference/console.md, "Money and time"). */
const LOCALE = 'en-GB';
const moneyFormats = new Map<string, Intl.NumberFormat>();
/** One formatter per currency, in the console's locale; its fraction digits are the currency's minor unit. */
function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, currencyDisplay: 'code' });
    moneyFormats.set(currency, format);
  }
  return format;
}
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' });

/**
 * 12345 → "PLN 123.45"; 1235 JPY → "JPY 1,235"; 1234 KWD → "KWD 1.234". The minor unit's digits are the
 * ones `Intl` shows for the currency (CLDR), which for every supported currency are ISO 4217's exponent
 * (docs/reference/console.md). Minor units are integers, so the division is exact enough to display.
 */
export function formatMoney(minorUnits: number, currency = 'PLN'): string {
  const format = moneyFormat(currency);
  return format.format(minorUnits / 10 ** (format.resolvedOptions().maximumFractionDigits ?? 2));
}

export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dateTime.format(new Date(iso)) : '—';
}

export function formatDate(iso: string): string {
  return dateOnly.format(new Date(iso));
}

const count = new Intl.NumberFormat(LOCALE);
/** A count of things (rows, accounts): 12345 → "12,345". */
export function formatCount(value: number): string {
  return count.format(value);
}

/**
 * What a person types ("12.50", "12,50", "-1 234.5", "1,234.50" as the console shows it, "7") →
 * minor units, or undefined when it is not an amount with at most two decimals. A comma is the
 * decimal mark unless it groups thousands before a decimal point ("1,234" alone is refused: it
 * reads two ways). Parsed as text, never through floating point.
 */
export function parseAmount(text: string): number | undefined {
  const match = /^([+-]?)(?:(\d{1,3}(?:,\d{3}){1,3})\.(\d{1,2})|(\d{1,13})(?:[.,](\d{1,2}))?)$/.exec(
    text.replace(/[\s\u00a0]/g, ''),
  );
  if (!match) return undefined;
  const [, sign, grouped, groupedFraction, plain, plainFraction] = match;
  const whole = (grouped ?? plain ?? '0').replaceAll(',', '');
  const fraction = groupedFraction ?? plainFraction ?? '';
  const minor = Number(whole) * 100 + Number(fraction.padEnd(2, '0'));
  return sign === '-' ? -minor : minor;
}

/** A datetime-local value ("2026-11-22T10:15") in the reader's time zone → ISO with offset Z. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** 1234567 → "PLN 12.3K": for a chart's axis, where full amounts do not fit. */
export function formatMoneyCompact(minorUnits: number, currency = 'PLN'): string {
  const digits = moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
  const compact = new Intl.NumberFormat(LOCALE, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  return compact.format(minorUnits / 10 ** digits);
}

// A world day (`YYYY-MM-DD`, already local to Europe/Warsaw) is a calendar date: read and shown in UTC so no zone moves it.
const dayLong = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeZone: 'UTC' });
const dayShort = new Intl.DateTimeFormat(LOCALE, { day: 'numeric', month: 'short', timeZone: 'UTC' });

/** "2026-11-26" → "26 Nov 2026". */
export function formatDay(day: string): string {
  return dayLong.format(new Date(`${day}T00:00:00Z`));
}

/** "2026-11-26" → "26 Nov" (a chart's axis). */
export function formatDayShort(day: string): string {
  return dayShort.format(new Date(`${day}T00:00:00Z`));
}
