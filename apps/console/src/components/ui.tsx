/** Small shared pieces: page header, money, badges, pager, empty state. */
import { Fragment, type ReactNode, useEffect } from 'react';
import { formatCount, formatMoney } from '../lib/format.ts';

export function PageHeader({ title, subtitle, children }: { title: string; subtitle?: ReactNode; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Sandbank console`;
  }, [title]);
  return (
    <header className="page-header">
      <div>
        <h1>{title}</h1>
        {subtitle && <p>{subtitle}</p>}
      </div>
      {children}
    </header>
  );
}

/** An amount in its own currency's minor units, written in that currency. */
export function Money({
  amount,
  currency,
  signed = false,
  original,
}: {
  amount: number;
  currency: string;
  signed?: boolean;
  /** A card payment in another currency: what the merchant charged, shown beside the booked amount. */
  original?: { amount: number; currency: string } | undefined;
}) {
  const text = formatMoney(amount, currency);
  const beside = original ? <span className="original-amount"> ({formatMoney(original.amount, original.currency)})</span> : null;
  if (!signed)
    return (
      <span>
        {text}
        {beside}
      </span>
    );
  return (
    <span className={amount > 0 ? 'credit' : 'debit'}>
      {amount > 0 ? `+${text}` : text}
      {beside}
    </span>
  );
}

/** The merchant's amount of a transaction paid in another currency, for `Money`'s `original`. */
export const originalOf = (transaction: { originalAmount?: number | undefined; originalCurrency?: string | undefined }) =>
  transaction.originalAmount !== undefined && transaction.originalCurrency
    ? { amount: transaction.originalAmount, currency: transaction.originalCurrency }
    : undefined;

const TONES: Record<string, 'ok' | 'warn' | 'danger' | undefined> = {
  open: 'ok',
  active: 'ok',
  posted: 'ok',
  succeeded: 'ok',
  pending: 'warn',
  closed: undefined,
  voided: undefined,
  revoked: 'danger',
  expired: 'danger',
  failed: 'danger',
  failing: 'danger',
  'faults on': 'warn',
  disabled: 'danger',
  login_required: 'warn',
  awaiting_exchange: 'warn',
  // Payments' ISO 20022 statuses (docs/concepts/payments.md).
  ACTC: 'warn',
  ACSP: 'warn',
  ACSC: 'ok',
  RJCT: 'danger',
  returned: 'danger',
  // Enable Banking's session and payment statuses (docs/faces/enablebanking.md).
  AUTHORIZED: 'ok',
  EXPIRED: 'danger',
  PDNG: 'warn',
};

export function StatusBadge({ status }: { status: string }) {
  const tone = TONES[status];
  return <span className={tone ? `badge ${tone}` : 'badge'}>{status}</span>;
}

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  hasMore: boolean;
}

export function Pager({ meta, onPage, label }: { meta: PageMeta | undefined; onPage: (page: number) => void; label: string }) {
  if (!meta || meta.total === 0) return null;
  const first = (meta.page - 1) * meta.limit + 1;
  const last = Math.min(meta.total, meta.page * meta.limit);
  return (
    <nav className="pager" aria-label={`${label} pages`}>
      <span>
        {formatCount(first)}–{formatCount(last)} of {formatCount(meta.total)}
      </span>
      <span className="row">
        <button type="button" className="secondary small" disabled={meta.page <= 1} onClick={() => onPage(meta.page - 1)}>
          Previous
        </button>
        <button type="button" className="secondary small" disabled={!meta.hasMore} onClick={() => onPage(meta.page + 1)}>
          Next
        </button>
      </span>
    </nav>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

/**
 * A URL or an e-mail address that may wrap after each `/` and before `?`, `&`, `#` and `@` when its
 * line is too short, so a narrow column breaks it between its parts, never inside one.
 */
export function BreakableAddress({ text }: { text: string }) {
  const parts = text.split(/(?<=\/)(?!\/)|(?=[?&#@])/);
  return (
    <>
      {parts.map((part, index) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: the parts of one string, in their order
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {part}
        </Fragment>
      ))}
    </>
  );
}
