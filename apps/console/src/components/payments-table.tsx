/**
 * The world's payments, newest first, with their filters in the address: status and account are
 * asked of the API (`payments.listPayments`), so they page over every payment; kind (to an IBAN or
 * between own accounts), direction (from or to the chosen account) and scheme narrow the page shown.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { formatDateTime, formatIban } from '../lib/format.ts';
import { SCHEME_LABELS, STATUS_LABELS } from '../lib/payments.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { AccountItem, Payment, PaymentStatus } from '../lib/types.ts';
import { useUrlState } from '../lib/url-state.ts';
import { ListSection } from './list-section.tsx';
import { Money, StatusBadge } from './ui.tsx';

const PAGE_SIZE = 100;
const STATUSES = Object.keys(STATUS_LABELS) as PaymentStatus[];
const SCHEMES = Object.keys(SCHEME_LABELS) as Payment['scheme'][];

interface Props {
  accounts: AccountItem[];
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}

export function PaymentsTable({ accounts, selectedId, onSelect }: Props) {
  const trpc = useTRPC();
  const url = useUrlState();
  const page = url.page();
  const status = url.get('status') as PaymentStatus | '';
  const accountId = url.get('account');
  const kind = url.get('kind');
  const direction = accountId ? url.get('direction') : '';
  const scheme = url.get('scheme');
  const query = useQuery({
    ...trpc.payments.listPayments.queryOptions({
      page,
      limit: PAGE_SIZE,
      ...(status ? { status } : {}),
      ...(accountId ? { accountId } : {}),
    }),
    placeholderData: keepPreviousData,
  });
  const nameOf = (id: string) => accounts.find((account) => account.id === id)?.name ?? id;
  const shown = (query.data?.data ?? []).filter(
    (payment) =>
      (!kind || (kind === 'own') === 'accountId' in payment.to) &&
      (!scheme || payment.scheme === scheme) &&
      (!direction || (direction === 'out') === (payment.fromAccountId === accountId)),
  );
  const narrowed = Boolean(kind || scheme || direction);
  const filtered = { ...query, data: query.data && { ...query.data, data: shown } };
  const filters = (
    <search className="row" aria-label="Filter payments">
      <label className="field">
        <span>Status</span>
        <select value={status} onChange={(e) => url.set({ status: e.target.value, page: 1 })}>
          <option value="">Any status</option>
          {STATUSES.map((value) => (
            <option key={value} value={value}>
              {value} · {STATUS_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
      <label className="field">
        <span>Account</span>
        <select value={accountId} onChange={(e) => url.set({ account: e.target.value, page: 1 })}>
          <option value="">Every account</option>
          {accounts.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name}
            </option>
          ))}
        </select>
      </label>
      {accountId && (
        <label className="field">
          <span>Direction</span>
          <select value={direction} onChange={(e) => url.set({ direction: e.target.value })}>
            <option value="">Sent and received</option>
            <option value="out">Sent from it</option>
            <option value="in">Received by it</option>
          </select>
        </label>
      )}
      <label className="field">
        <span>Kind</span>
        <select value={kind} onChange={(e) => url.set({ kind: e.target.value })}>
          <option value="">Every kind</option>
          <option value="iban">To an IBAN</option>
          <option value="own">Between own accounts</option>
        </select>
      </label>
      <label className="field">
        <span>Scheme</span>
        <select value={scheme} onChange={(e) => url.set({ scheme: e.target.value })}>
          <option value="">Every scheme</option>
          {SCHEMES.map((value) => (
            <option key={value} value={value}>
              {SCHEME_LABELS[value]}
            </option>
          ))}
        </select>
      </label>
    </search>
  );
  return (
    <ListSection
      id="payment-list"
      title="Payments"
      query={filtered}
      what="payments"
      empty={status || accountId || narrowed ? 'No payments match.' : 'No payments yet: make one with the form.'}
      onPage={(next) => url.set({ page: next }, { push: true })}
      pagerLabel="Payments"
      aside={filters}
    >
      {narrowed && (
        <p className="muted" data-testid="narrowed">
          Kind, direction and scheme narrow this page of {PAGE_SIZE}.
        </p>
      )}
      <table aria-label="Payments">
        <thead>
          <tr>
            <th scope="col">Created (world time)</th>
            <th scope="col">To</th>
            <th scope="col">Scheme</th>
            <th scope="col">Status</th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {shown.map((payment) => (
            <tr key={payment.id} data-selected={payment.id === selectedId || undefined} data-testid="payment-row">
              <td data-label="Created (world time)">{formatDateTime(payment.createdAt)}</td>
              <td data-label="To">
                <button
                  type="button"
                  className="link"
                  aria-current={payment.id === selectedId || undefined}
                  onClick={() => onSelect(payment.id)}
                >
                  {'accountId' in payment.to ? nameOf(payment.to.accountId) : payment.to.name}
                </button>
                <br />
                <small className="muted">
                  {'iban' in payment.to ? formatIban(payment.to.iban) : `from ${nameOf(payment.fromAccountId)}`}
                  {payment.description && ` · ${payment.description}`}
                </small>
              </td>
              <td data-label="Scheme">{payment.scheme}</td>
              <td data-label="Status">
                <StatusBadge status={payment.status} /> {payment.statusReason && <code>{payment.statusReason.code}</code>}
                {payment.returned && <StatusBadge status="returned" />}
              </td>
              <td data-label="Amount" className="num">
                <Money amount={payment.amount} currency={payment.currency} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ListSection>
  );
}
