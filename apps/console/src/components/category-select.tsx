/** A category picker with a "none" choice. */
import { CATEGORIES, CATEGORY_LABELS } from '../lib/categories.ts';
import type { Category } from '../lib/types.ts';

export function CategorySelect({ value, onChange }: { value: Category | ''; onChange: (value: Category | '') => void }) {
  return (
    <label className="field">
      <span>Category</span>
      <select value={value} onChange={(e) => onChange(e.target.value as Category | '')}>
        <option value="">(none)</option>
        {CATEGORIES.map((category) => (
          <option key={category} value={category}>
            {CATEGORY_LABELS[category]}
          </option>
        ))}
      </select>
    </label>
  );
}
