/**
 * What PostgreSQL cannot store: `text` refuses U+0000 and `jsonb` refuses lone UTF-16 surrogates
 * (`"\ud800"`), which JSON and JavaScript strings happily carry. One rule for every string any
 * procedure accepts — body, query and path alike — so such input is a 400 with the field's path,
 * never a 500 from deep inside a statement.
 */
export function isStorable(value: string): boolean {
  return value.isWellFormed() && !value.includes('\u0000');
}

/** A value still to look at, and how it was reached: its parent's step and its own key (or index). */
interface Step {
  value: unknown;
  parent: Step | null;
  key: string | number | null;
}

/** The dotted path of a step, built once, for the one value that is reported. */
function pathOf(step: Step, last?: string): string {
  const keys: (string | number)[] = last === undefined ? [] : [last];
  for (let at: Step | null = step; at?.key != null; at = at.parent) keys.push(at.key);
  return keys.reverse().join('.') || '(input)';
}

/**
 * The path of the first string (or object key) in `input` that PostgreSQL could not store, if any.
 * Iterative, with a parent link per value instead of a copied path per level: linear in the size of
 * the input however deep it nests (the parsers bound depth too: json-depth.ts).
 */
export function findUnstorable(input: unknown): string | null {
  const pending: Step[] = [{ value: input, parent: null, key: null }];
  for (let step = pending.pop(); step !== undefined; step = pending.pop()) {
    const { value, parent, key } = step;
    // An object's key is checked when its entry comes up, before its value, as a recursive walk would.
    if (parent !== null && typeof key === 'string' && !isStorable(key)) return pathOf(parent, '(key)');
    if (typeof value === 'string') {
      if (!isStorable(value)) return pathOf(step);
    } else if (Array.isArray(value)) {
      // Pushed in reverse, so items are looked at in order (the first bad one is reported).
      for (let index = value.length - 1; index >= 0; index -= 1) pending.push({ value: value[index], parent: step, key: index });
    } else if (value !== null && typeof value === 'object') {
      const entries = Object.entries(value);
      for (let index = entries.length - 1; index >= 0; index -= 1) {
        const [name, item] = entries[index] as [string, unknown];
        pending.push({ value: item, parent: step, key: name });
      }
    }
  }
  return null;
}
