/**
 * fast-check generators of hostile input shared by the property tests: JSON nested to any depth, and
 * dates, timestamps, Unix seconds and ISO 8601 durations over the whole range a client can type —
 * years 0000 to 9999 and beyond (expanded `+010000` years), every offset, impossible days, parts of
 * up to 20 digits — each with what it should be, worked out apart from the code under test.
 */
import fc from 'fast-check';

/** The holdable instants (years 0001–9999 UTC), as the API documents them. */
export const EARLIEST = Date.parse('0001-01-01T00:00:00.000Z');
export const LATEST = Date.parse('9999-12-31T23:59:59.999Z');

/** JSON text of a value nested `depth` arrays and objects deep (1 = a flat array or object). */
export function nestedJson(depth: number, inner = '"x"'): string {
  let text = inner;
  for (let level = 0; level < depth; level += 1) text = level % 3 === 2 ? `{"k":${text}}` : `[${text}]`;
  return text;
}

/** A depth around the bound (32) most of the time, sometimes far beyond it. */
export const depthArb = fc.oneof(
  { arbitrary: fc.integer({ min: 1, max: 40 }), weight: 4 },
  { arbitrary: fc.integer({ min: 41, max: 3_000 }), weight: 2 },
  { arbitrary: fc.constantFrom(6_000, 10_000, 20_000), weight: 1 },
);

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/** A year as written: four digits (0000–9999) mostly, near the edges often, or an expanded ±YYYYYY year. */
const yearTextArb = fc.oneof(
  { arbitrary: fc.integer({ min: 0, max: 9_999 }).map((year) => pad(year, 4)), weight: 4 },
  { arbitrary: fc.constantFrom('0000', '0001', '1969', '1970', '2026', '9899', '9900', '9999'), weight: 4 },
  { arbitrary: fc.constantFrom('+010000', '+275760', '-000001', '+000001', '10000'), weight: 1 },
);

/** A month and a day, mostly real ones, sometimes impossible (00, 13, 02-30, 32). */
const monthDayArb = fc.oneof(
  { arbitrary: fc.tuple(fc.integer({ min: 1, max: 12 }), fc.integer({ min: 1, max: 28 })), weight: 6 },
  { arbitrary: fc.constantFrom([12, 31], [1, 1], [2, 29], [12, 30]), weight: 3 },
  { arbitrary: fc.constantFrom([0, 1], [13, 1], [2, 30], [4, 31], [1, 32], [1, 0]), weight: 1 },
);

/** Whether `year-month-day` is a real day of the proleptic Gregorian calendar (four-digit years only). */
function isRealDay(yearText: string, month: number, day: number): boolean {
  if (!/^\d{4}$/.test(yearText)) return false;
  const date = new Date(0);
  date.setUTCFullYear(Number(yearText), month - 1, day);
  return date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

export interface DayCase {
  text: string;
  /** A real day in years 0001–9999. */
  holdable: boolean;
  /** Its first instant (NaN when not a real day). */
  start: number;
}

export const dayArb: fc.Arbitrary<DayCase> = fc.tuple(yearTextArb, monthDayArb).map(([year, [month, day]]) => {
  const text = `${year}-${pad(month, 2)}-${pad(day, 2)}`;
  const real = isRealDay(year, month, day);
  const start = real ? Date.parse(`${text}T00:00:00.000Z`) : Number.NaN;
  return { text, holdable: real && start >= EARLIEST && start <= LATEST, start };
});

export interface InstantCase {
  text: string;
  /** Well-formed ISO 8601 with an offset, and inside years 0001–9999 UTC. */
  holdable: boolean;
  /** The instant in ms (NaN when malformed). */
  ms: number;
}

const OFFSETS = ['Z', 'Z', '+00:00', '+01:00', '-00:30', '+14:00', '-12:00', '+23:59', '-23:59'];

export const instantArb: fc.Arbitrary<InstantCase> = fc
  .record({
    day: dayArb,
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    fraction: fc.constantFrom('', '.000', '.5', '.999', '.123456'),
    offset: fc.constantFrom(...OFFSETS),
    edge: fc.option(fc.constantFrom('start', 'end'), { freq: 3 }),
  })
  .map(({ day, hour, minute, second, fraction, offset, edge }) => {
    // Near the edges of a day often: the last millisecond of 9999-12-31, the first of 0001-01-01.
    const time =
      edge === 'end'
        ? '23:59:59.999'
        : edge === 'start'
          ? '00:00:00'
          : `${pad(hour, 2)}:${pad(minute, 2)}:${pad(second, 2)}${fraction}`;
    const text = `${day.text}T${time}${offset}`;
    const ms = day.holdable || /^\d{4}-/.test(day.text) ? Date.parse(text) : Number.NaN;
    const wellFormed = isRealDay(day.text.slice(0, 4), Number(day.text.slice(5, 7)), Number(day.text.slice(8, 10)));
    return { text, holdable: wellFormed && ms >= EARLIEST && ms <= LATEST, ms };
  });

/** A date field as a client might send it: a day or a timestamp. */
export const dayOrInstantArb = fc.oneof(
  dayArb.map((day) => ({ text: day.text, holdable: day.holdable, ms: day.start })),
  instantArb,
);

const UNITS = [
  ['Y', 365.25],
  ['M', 30.44],
  ['W', 7],
  ['D', 1],
  ['H', 1 / 24],
  ['M', 1 / 1_440],
  ['S', 1 / 86_400],
] as const;

const partArb = fc.oneof(
  { arbitrary: fc.constant(null), weight: 4 },
  { arbitrary: fc.integer({ min: 0, max: 40 }), weight: 3 },
  { arbitrary: fc.integer({ min: 0, max: 400_000 }), weight: 2 },
  { arbitrary: fc.bigInt({ min: 0n, max: 10n ** 20n - 1n }), weight: 1 },
);

/** A well-formed ISO 8601 duration, and roughly how many days it spans (independent of the code under test). */
export const durationArb = fc.array(partArb, { minLength: 7, maxLength: 7 }).map((parts) => {
  let date = 'P';
  let time = '';
  let days = 0;
  parts.forEach((part, index) => {
    if (part === null) return;
    const [unit, length] = UNITS[index] as (typeof UNITS)[number];
    if (index < 4) date += `${part}${unit}`;
    else time += `${part}${unit}`;
    days += Number(part) * length;
  });
  return { value: date + (time ? `T${time}` : ''), days };
});

export const YEAR_DAYS = 365.25;
