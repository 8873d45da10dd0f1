/**
 * The storable-text walk (core `findUnstorable`) over any input: iterative and linear, so a value
 * nested far deeper than any parser lets through still gives its path, without a stack overflow and
 * without copying the path at every level (which made 6,000 levels quadratic).
 */
import { findUnstorable } from '@sandbank/core';
import { expect, it } from 'vitest';

function nestedArray(depth: number, inner: unknown): unknown {
  let value = inner;
  for (let level = 0; level < depth; level += 1) value = [value];
  return value;
}

it('finds the first unstorable string, key or item in order, with its path', () => {
  expect(findUnstorable({ a: 'ok', b: ['x', 'y\u0000'], c: '\ud800' })).toBe('b.1');
  expect(findUnstorable({ a: { 'k\u0000': 1 } })).toBe('a.(key)');
  expect(findUnstorable({ a: '\u0000', '\ud800': 1 })).toBe('a');
  expect(findUnstorable({ '\ud800': 1, a: '\u0000' })).toBe('(key)');
  expect(findUnstorable('\u0000')).toBe('(input)');
  expect(findUnstorable({ a: [{ b: 'fine' }], n: 5, z: null })).toBeNull();
});

it('walks 200,000 levels without recursion, in time linear in the depth', () => {
  const time = (depth: number) => {
    const value = { field: nestedArray(depth, 'bad\u0000') };
    const started = performance.now();
    const path = findUnstorable(value);
    const elapsed = performance.now() - started;
    expect(path).toBe(['field', ...Array(depth).fill(0)].join('.'));
    return elapsed;
  };
  time(20_000); // warm-up
  const small = Math.max(time(20_000), 1);
  const large = time(200_000);
  // Ten times the depth: about ten times the time (a quadratic walk would take a hundred times).
  expect(large).toBeLessThan(40 * small);
});
