/**
 * How the console shows money, numbers and time: every figure and date on a page goes through this
 * module, in one locale, en-GB, whatever the browser's language. The console speaks English, so its
 * dates do too ("29 Nov 2026, 09:15": day before month as in Poland, a 24-hour clock, the month
 * named, so a date never reads two ways beside a browser's `mm/dd/yyyy` date input); money is in its
 * own currency, by its ISO code as English writes PLN ("PLN 1,234.56", "EUR 12.50", "JPY 1,235", "KWD 0.005"), never
 * a symbol that reads two ways ($). Times are in the
 * reader's time zone; world days (`YYYY-MM-DD`) are calendar dates and no zone moves them.
 */

/** The console's one locale (docs/reference/console.md, "Money and time"). */
const LOCALE = 'en-GB';
const dateTime = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium', timeStyle: 'short' });
const dateOnly = new Intl.DateTimeFormat(LOCALE, { dateStyle: 'medium' });

const moneyFormats = new Map<string, Intl.NumberFormat>();
function moneyFormat(currency: string): Intl.NumberFormat {
  let format = moneyFormats.get(currency);
  if (!format) {
    format = new Intl.NumberFormat(LOCALE, { style: 'currency', currency, currencyDisplay: 'code' });
    moneyFormats.set(currency, format);
  }
  return format;
}

/**
 * Digits after the decimal point of a currency's minor unit: PLN 2, JPY 0, KWD 3. Read from `Intl`
 * (CLDR), which agrees with ISO 4217 for every currency an account may hold: a test compares the two
 * (test/format.test.ts), so the console needs no copy of the table.
 */
export function exponentOf(currency: string): number {
  return moneyFormat(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/** Minor units as an exact decimal string by the currency's exponent: (-1234, PLN) → "-12.34", (5, KWD) → "0.005". */
function minorToDecimal(minorUnits: number, currency: string): string {
  const exponent = exponentOf(currency);
  const value = BigInt(minorUnits);
  const abs = value < 0n ? -value : value;
  if (exponent === 0) return `${value < 0n ? '-' : ''}${abs}`;
  const scale = 10n ** BigInt(exponent);
  return `${value < 0n ? '-' : ''}${abs / scale}.${String(abs % scale).padStart(exponent, '0')}`;
}

/** (12345, PLN) → "PLN 123.45", (1235, JPY) → "JPY 1,235". Formatted from the exact decimal, never a divided float. */
export function formatMoney(minorUnits: number, currency: string): string {
  return moneyFormat(currency).format(minorToDecimal(minorUnits, currency) as Intl.StringNumericLiteral);
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
 * minor units of `currency`, or undefined when it is not an amount with at most the currency's
 * decimals (none for JPY, three for KWD). A comma is the decimal mark unless it groups thousands
 * before a decimal point ("1,234" alone is refused: it reads two ways). Parsed as text, never
 * through floating point.
 */
export function parseAmount(text: string, currency: string): number | undefined {
  const exponent = exponentOf(currency);
  const fractionPart = exponent === 0 ? '' : `(?:[.,](\\d{1,${exponent}}))?`;
  const groupedPart = exponent === 0 ? '(\\d{1,3}(?:,\\d{3}){1,3})()' : `(\\d{1,3}(?:,\\d{3}){1,3})\\.(\\d{1,${exponent}})`;
  const match = new RegExp(`^([+-]?)(?:${groupedPart}|(\\d{1,${15 - exponent}})${fractionPart})$`).exec(
    text.replace(/[\s\u00a0]/g, ''),
  );
  if (!match) return undefined;
  const [, sign, grouped, groupedFraction, plain, plainFraction] = match;
  const whole = (grouped ?? plain ?? '0').replaceAll(',', '');
  const fraction = (groupedFraction || plainFraction || '').padEnd(exponent, '0');
  const minor = Number(BigInt(whole) * 10n ** BigInt(exponent) + BigInt(fraction || '0'));
  return sign === '-' ? -minor : minor;
}

const DECIMALS = ['no decimals', 'at most one decimal', 'at most two decimals', 'at most three decimals'];

/** How many decimals an amount in `currency` may have, in words: "at most two decimals" (PLN), "no decimals" (JPY). */
export const decimalsRule = (currency: string): string =>
  DECIMALS[exponentOf(currency)] ?? `at most ${exponentOf(currency)} decimals`;

/** An example amount in `currency` as a person would type it: "12.50" (PLN), "1250" (JPY), "12.500" (KWD). */
export const exampleAmount = (currency: string): string =>
  exponentOf(currency) === 0 ? '1250' : `12.${'5'.padEnd(exponentOf(currency), '0')}`;

/** A datetime-local value ("2026-11-22T10:15") in the reader's time zone → ISO with offset Z. */
export function localInputToIso(value: string): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** (1234567, PLN) → "PLN 12.3K": for a chart's axis, where full amounts do not fit. */
export function formatMoneyCompact(minorUnits: number, currency: string): string {
  return new Intl.NumberFormat(LOCALE, {
    style: 'currency',
    currency,
    currencyDisplay: 'code',
    notation: 'compact',
    maximumFractionDigits: 1,
  }).format(minorToDecimal(minorUnits, currency) as Intl.StringNumericLiteral);
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

/** An IBAN in its printed form, in groups of four: "PL61109010140000071219812874" → "PL61 1090 1014 0000 0712 1981 2874". */
export function formatIban(iban: string): string {
  return iban.replace(/(.{4})(?=.)/g, '$1 ');
}
