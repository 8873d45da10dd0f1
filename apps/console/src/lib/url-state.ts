/**
 * A view's state in its address: filters, page and the selected item live in the query string,
 * so a reload, a shared link or Back shows the same view. Values are strings; an empty one (or
 * the default) leaves the parameter out, so the address stays short.
 */
import { useLocation, useSearch } from 'wouter';

export interface UrlState {
  get(name: string): string;
  /** A positive page number (1 when missing or not a number). */
  page(name?: string): number;
  /**
   * Sets (or, with '' / undefined, removes) parameters. `push` adds a history entry (a page, a
   * selection: Back returns to it); the default replaces it (filters as they are typed).
   */
  set(changes: Record<string, string | number | undefined>, options?: { push?: boolean }): void;
}

export function useUrlState(): UrlState {
  const search = useSearch();
  const [location, navigate] = useLocation();
  const params = new URLSearchParams(search);
  return {
    get: (name) => params.get(name) ?? '',
    page(name = 'page') {
      const value = Number(params.get(name));
      return Number.isInteger(value) && value >= 1 ? value : 1;
    },
    set(changes, options = {}) {
      const next = new URLSearchParams(search);
      for (const [name, value] of Object.entries(changes)) {
        if (value === undefined || value === '' || (name.endsWith('page') && value === 1)) next.delete(name);
        else next.set(name, String(value));
      }
      const query = next.toString();
      if (query === search) return;
      navigate(query ? `${location}?${query}` : location, { replace: !options.push });
    },
  };
}

/** The list page in the address (`?page=`): the current one and a setter that adds a history entry. */
export function usePageParam(): [number, (page: number) => void] {
  const url = useUrlState();
  return [url.page(), (next) => url.set({ page: next }, { push: true })];
}
