/**
 * A card holding one paged list: its heading, its error, a loading line or an empty state, the
 * table (the caller's rows under a `TableHead`) and the pager.
 */
import type { ReactNode } from 'react';
import { ErrorNote } from './error-note.tsx';
import { Loading, type PageMeta, Pager } from './ui.tsx';

/** The part of a list query's state the section reads. */
interface ListQuery {
  error: unknown;
  isPending: boolean;
  data?: { data: readonly unknown[]; meta: PageMeta } | undefined;
}

interface Props {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  /** Beside the heading (e.g. a live indicator). */
  aside?: ReactNode;
  query: ListQuery;
  /** An action's error, shown when the list has none (e.g. a failed revoke). */
  actionError?: unknown;
  /** Plural noun for “Loading …”, e.g. “keys”. */
  what: string;
  empty: ReactNode;
  onPage: (page: number) => void;
  pagerLabel: string;
  /** The table (rendered inside the scrolling wrapper) when there are rows. */
  children: ReactNode;
}

export function ListSection({ id, title, aside, query, actionError, what, empty, onPage, pagerLabel, children }: Props) {
  const heading = <h2 id={id}>{title}</h2>;
  const count = query.data?.data.length ?? 0;
  return (
    <section className="card" aria-labelledby={id}>
      {aside ? (
        <header>
          {heading}
          {aside}
        </header>
      ) : (
        heading
      )}
      <ErrorNote error={query.error ?? actionError} />
      {query.isPending ? (
        <Loading what={what} />
      ) : count === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <div className="table-wrap">{children}</div>
      )}
      <Pager meta={query.data?.meta} onPage={onPage} label={pagerLabel} />
    </section>
  );
}

/** A column: its label, or the label and whether it holds numbers (right-aligned). */
export type Column = string | { label: string; num: true };

/** The header row; `actions` adds a last, visually hidden “Actions” column. */
export function TableHead({ columns, actions = false }: { columns: readonly Column[]; actions?: boolean }) {
  return (
    <thead>
      <tr>
        {columns.map((column) =>
          typeof column === 'string' ? (
            <th key={column} scope="col">
              {column}
            </th>
          ) : (
            <th key={column.label} scope="col" className="num">
              {column.label}
            </th>
          ),
        )}
        {actions && (
          <th scope="col">
            <span className="visually-hidden">Actions</span>
          </th>
        )}
      </tr>
    </thead>
  );
}
