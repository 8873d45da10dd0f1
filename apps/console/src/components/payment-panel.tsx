/**
 * One payment in full, read by id (`payments.getPayment`) so that after an action it shows the
 * payment as it is now: amount in its currency, both ends, scheme, status and reason, its status
 * timeline, its transactions (each opens on its account's page) and what can be done to it.
 */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { formatDay, formatIban } from '../lib/format.ts';
import { SCHEME_LABELS } from '../lib/payments.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { AccountItem, Payment } from '../lib/types.ts';
import { CopyButton } from './copy-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { PaymentActions } from './payment-actions.tsx';
import { PaymentTimeline } from './payment-timeline.tsx';
import { Loading, Money, StatusBadge } from './ui.tsx';

/** The account a payment's transaction is on: the credit leg of an own-account transfer is the destination's; the debit and a return's credit are the source's. */
const accountOfLeg = (payment: Payment, index: number) =>
  index === 1 && 'accountId' in payment.to ? payment.to.accountId : payment.fromAccountId;

export function PaymentPanel({ id, accounts, onClose }: { id: string; accounts: AccountItem[]; onClose: () => void }) {
  const trpc = useTRPC();
  const query = useQuery(trpc.payments.getPayment.queryOptions({ id }));
  const payment = query.data?.data;
  const nameOf = (accountId: string) => accounts.find((account) => account.id === accountId)?.name ?? accountId;
  return (
    <section className="card sheet" aria-labelledby="payment-title" data-testid="payment-panel">
      <header>
        <h2 id="payment-title">Payment</h2>
        <button type="button" className="secondary small" onClick={onClose}>
          Close
        </button>
      </header>
      <ErrorNote error={query.error} />
      {!payment ? (
        !query.error && <Loading what="the payment" />
      ) : (
        <>
          <dl className="facts">
            <dt>Amount</dt>
            <dd>
              <Money amount={payment.amount} currency={payment.currency} />
            </dd>
            <dt>Status</dt>
            <dd data-testid="payment-status">
              <StatusBadge status={payment.status} />
              {payment.statusReason && (
                <>
                  {' '}
                  <code>{payment.statusReason.code}</code> {payment.statusReason.message}
                </>
              )}
              {payment.returned && (
                <>
                  {' '}
                  <StatusBadge status="returned" /> <code>{payment.returned.reason.code}</code> {payment.returned.reason.message}
                </>
              )}
            </dd>
            <dt>From</dt>
            <dd>
              <Link href={`/accounts/${payment.fromAccountId}`}>{nameOf(payment.fromAccountId)}</Link>
            </dd>
            <dt>To</dt>
            <dd>
              {'accountId' in payment.to ? (
                <Link href={`/accounts/${payment.to.accountId}`}>{nameOf(payment.to.accountId)}</Link>
              ) : (
                <>
                  {payment.to.name} · <span className="mono">{formatIban(payment.to.iban)}</span>
                </>
              )}
            </dd>
            <dt>Scheme</dt>
            <dd>{SCHEME_LABELS[payment.scheme]}</dd>
            <dt>Description</dt>
            <dd>{payment.description || '—'}</dd>
            {payment.requestedExecutionDate && (
              <>
                <dt>Execution asked for</dt>
                <dd>{formatDay(payment.requestedExecutionDate)}</dd>
              </>
            )}
            <dt>EndToEndId</dt>
            <dd className="mono">
              {payment.endToEndId} <CopyButton text={payment.endToEndId} label="Copy EndToEndId" />
            </dd>
            <dt>Transactions</dt>
            <dd>
              {payment.transactionIds.length === 0 ? (
                '—'
              ) : (
                <ul className="plain-list">
                  {payment.transactionIds.map((transactionId, index) => (
                    <li key={transactionId} className="mono">
                      <Link href={`/accounts/${accountOfLeg(payment, index)}?tx=${transactionId}`}>{transactionId}</Link>{' '}
                      <CopyButton text={transactionId} label="Copy transaction id" />
                    </li>
                  ))}
                </ul>
              )}
            </dd>
            <dt>Id</dt>
            <dd className="mono">
              {payment.id} <CopyButton text={payment.id} label="Copy payment id" />
            </dd>
          </dl>
          <PaymentActions key={`${payment.status}:${payment.returned ? 'returned' : ''}`} payment={payment} />
          <PaymentTimeline payment={payment} />
        </>
      )}
    </section>
  );
}
