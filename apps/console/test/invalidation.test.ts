/**
 * Invalidation is derived from the mutation (src/lib/query-client.ts): AFFECTS names real router
 * areas only, and an area it does not list refetches its own queries (the default).
 */
import { appRouter } from '@sandbank/core';
import { describe, expect, it } from 'vitest';
import { AFFECTS, areaOf } from '../src/lib/query-client.ts';

const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>;
const areas = new Set(Object.keys(procedures).map((path) => path.split('.')[0] ?? ''));

describe('invalidation derived from mutations', () => {
  it('names only areas of the router', () => {
    for (const area of Object.keys(AFFECTS)) expect(areas.has(area), area).toBe(true);
    for (const affected of Object.values(AFFECTS).flat()) expect(areas.has(affected), affected).toBe(true);
  });

  it('reads the area from a tRPC mutation key', () => {
    expect(areaOf([['transactions', 'voidTransaction']])).toBe('transactions');
    expect(areaOf(undefined)).toBeUndefined();
    expect(areaOf(['plain'])).toBeUndefined();
  });
});
