/** Category labels; `satisfies` makes the compiler insist on every category of the API and nothing else. */
import type { Category } from './types.ts';

export const CATEGORY_LABELS = {
  groceries: 'Groceries',
  transport: 'Transport',
  fuel: 'Fuel',
  utilities: 'Utilities',
  telecom: 'Telecom',
  subscriptions: 'Subscriptions',
  restaurants: 'Restaurants',
  health: 'Health',
  shopping: 'Shopping',
  housing: 'Housing',
  salary: 'Salary',
  transfer: 'Transfer',
  cash: 'Cash',
  entertainment: 'Entertainment',
  education: 'Education',
  other: 'Other',
} satisfies Record<Category, string>;

export const CATEGORIES = Object.keys(CATEGORY_LABELS) as Category[];
