/**
 * What PostgreSQL cannot store: `text` refuses U+0000 and `jsonb` refuses lone UTF-16 surrogates
 * (`"\ud800"`), which JSON and JavaScript strings happily carry. One rule for every string any
 * procedure accepts — body, query and path alike — so such input is a 400 with the field's path,
 * never a 500 from deep inside a statement.
 */
export function isStorable(value: string): boolean {
  return value.isWellFormed() && !value.includes('\u0000');
}

/** The path of the first string (or object key) in `input` that PostgreSQL could not store, if any. */
export function findUnstorable(input: unknown, path: (string | number)[] = []): string | null {
  if (typeof input === 'string') return isStorable(input) ? null : path.join('.') || '(input)';
  if (Array.isArray(input)) {
    for (const [index, item] of input.entries()) {
      const found = findUnstorable(item, [...path, index]);
      if (found !== null) return found;
    }
  } else if (input !== null && typeof input === 'object') {
    for (const [key, value] of Object.entries(input)) {
      if (!isStorable(key)) return [...path, '(key)'].join('.');
      const found = findUnstorable(value, [...path, key]);
      if (found !== null) return found;
    }
  }
  return null;
}
