/**
 * A card holding one paged list: its heading, its error, a loading line or an empty state, the
 * table (the caller's rows under a `TableHead`) and the pager.
 */
import type { ReactNode } from 'react';
import { ErrorNote } from './error-note.tsx';
import { Loading, type PageMeta, Pager } from './ui.tsx';

interface Props {
  /** The heading's id (the section is labelled by it). */
  id: string;
  title: string;
  /** Beside the heading (e.g. a live indicator). */
  aside?: ReactNode;
  error: unknown;
  pending: boolean;
  /** Plural noun for “Loading …” and the pager, e.g. “keys”. */
  what: string;
  empty: ReactNode;
  count: number;
  meta: PageMeta | undefined;
  onPage: (page: number) => void;
  pagerLabel: string;
  /** The table (rendered inside the scrolling wrapper) when there are rows. */
  children: ReactNode;
}

export function ListSection({ id, title, aside, error, pending, what, empty, count, meta, onPage, pagerLabel, children }: Props) {
  const heading = <h2 id={id}>{title}</h2>;
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
      <ErrorNote error={error} />
      {pending ? (
        <Loading what={what} />
      ) : count === 0 ? (
        <p className="empty">{empty}</p>
      ) : (
        <div className="table-wrap">{children}</div>
      )}
      <Pager meta={meta} onPage={onPage} label={pagerLabel} />
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
