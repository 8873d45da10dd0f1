/** The balance chart's y axis: whole-złoty ticks whatever the balance does (no five "0 zł" on a flat line). */
import { describe, expect, it } from 'vitest';
import { yDomain } from '../src/components/balance-plot.tsx';

describe('the balance chart’s y domain', () => {
  it('gives a flat or nearly flat balance a 100 zł span on whole hundreds', () => {
    expect(yDomain([0, 0])).toEqual([0, 100_00]);
    expect(yDomain([123_456, 123_456])).toEqual([120_000, 130_000]);
    expect(yDomain([-1, 0])).toEqual([-100_00, 0]);
    expect(yDomain([99_99, 100_01])).toEqual([0, 200_00]);
  });

  it('leaves a balance that moves by 100 zł or more to the chart', () => {
    expect(yDomain([0, 100_00])).toEqual([0, 100_00]);
    expect(yDomain([-5_000_00, 150_000_00])).toEqual([-5_000_00, 150_000_00]);
  });
});
