import { uuidv7 } from '@sandbank/core';
import { describe, expect, it } from 'vitest';

describe('uuidv7 (pooled randomness, own monotonic state)', () => {
  it('makes valid, unique v7 ids in strictly increasing order, also many within one millisecond', () => {
    const ids = Array.from({ length: 20_000 }, () => uuidv7());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(ids);
  });

  it('carries the wall clock in its first 48 bits', () => {
    const before = Date.now();
    const id = uuidv7();
    const msecs = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    // Within a millisecond the counter may carry the timestamp forward a little, never back.
    expect(msecs).toBeGreaterThanOrEqual(before);
    expect(msecs).toBeLessThan(Date.now() + 1000);
  });
});
