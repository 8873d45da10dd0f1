/** ISO 8601 durations (src/lib/duration.ts): calendar arithmetic in UTC and the bounds every field shares. */
import { describe, expect, it } from 'vitest';
import {
  addIsoDuration,
  isoDurationProblem,
  MAX_DURATION,
  subtractIsoDuration,
  tryAddIsoDuration,
  trySubtractIsoDuration,
} from '../src/lib/duration.ts';

const at = (iso: string) => new Date(iso);

describe('adding a duration', () => {
  it.each([
    ['2027-01-31T10:00:00.000Z', 'P1M', '2027-02-28T10:00:00.000Z'],
    ['2028-01-31T10:00:00.000Z', 'P1M', '2028-02-29T10:00:00.000Z'],
    ['2028-02-29T00:00:00.000Z', 'P1Y', '2029-02-28T00:00:00.000Z'],
    ['2026-12-31T23:59:59.999Z', 'PT0.001S', '2027-01-01T00:00:00.000Z'],
    ['2027-03-27T12:00:00.000Z', 'P1D', '2027-03-28T12:00:00.000Z'],
    ['2026-11-25T00:00:00.000Z', 'PT36H', '2026-11-26T12:00:00.000Z'],
    ['2026-11-25T00:00:00.000Z', 'P1Y2M3DT4H5M6S', '2028-01-28T04:05:06.000Z'],
  ])('%s + %s = %s (calendar-correct, UTC)', (start, duration, end) => {
    expect(addIsoDuration(at(start), duration).toISOString()).toBe(end);
    expect(tryAddIsoDuration(at(start), duration)?.toISOString()).toBe(end);
  });

  it('subtracts the same way, and a month back from 31 March is the last of February', () => {
    expect(subtractIsoDuration(at('2027-03-31T08:00:00.000Z'), 'P1M').toISOString()).toBe('2027-02-28T08:00:00.000Z');
    expect(trySubtractIsoDuration(at('2026-11-25T00:00:00.000Z'), 'P2D')?.toISOString()).toBe('2026-11-23T00:00:00.000Z');
  });

  it('gives null (try) or throws when the result is no instant a world can hold', () => {
    expect(tryAddIsoDuration(at('9999-12-31T00:00:00.000Z'), 'P1D')).toBeNull();
    expect(trySubtractIsoDuration(at('0001-01-01T00:00:00.000Z'), 'P1D')).toBeNull();
    expect(() => addIsoDuration(at('9999-12-31T00:00:00.000Z'), 'P1D')).toThrow(RangeError);
    expect(tryAddIsoDuration(at('2026-01-01T00:00:00.000Z'), 'not a duration')).toBeNull();
  });
});

describe('which durations a field takes', () => {
  it.each(['P2D', 'PT36H', 'P1M', 'P1Y2M3D', 'PT0.5S', MAX_DURATION])('takes %s', (value) => {
    expect(isoDurationProblem(value)).toBeNull();
  });

  it.each([
    ['', /ISO 8601/],
    ['2D', /ISO 8601/],
    ['-P1D', /ISO 8601/],
    ['P1M-29D', /ISO 8601/],
    ['P0D', /positive/],
    ['PT0S', /positive/],
    ['P100Y1D', /At most P100Y/],
    ['P300000Y', /At most P100Y/],
  ])('refuses %j', (value, message) => {
    expect(isoDurationProblem(value)).toMatch(message);
  });

  it('takes zero or any length only when asked', () => {
    expect(isoDurationProblem('P0D', { zero: true })).toBeNull();
    expect(isoDurationProblem('P300Y', { unbounded: true })).toBeNull();
    expect(isoDurationProblem('-P1D', { unbounded: true, zero: true })).not.toBeNull();
  });
});
