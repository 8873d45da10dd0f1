/**
 * One Enable Banking application's sessions and payments on the Enable Banking page, each list paged
 * on its own. A session that is not closed can be revoked (closed at the world's now, as when the app
 * deletes it); a payment shows Enable Banking's status beside the section-19 payment it runs as.
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { formatDateTime, formatIban } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { TableHead } from './list-section.tsx';
import { Loading, Money, Pager, StatusBadge } from './ui.tsx';

interface Application {
  id: string;
  name: string;
}

const LIMIT = 10;

export function ApplicationSessions({ application }: { application: Application }) {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const sessions = useQuery(trpc.enablebanking.listSessions.queryOptions({ id: application.id, page, limit: LIMIT }));
  const revoke = useMutation(trpc.enablebanking.revokeSession.mutationOptions());
  const list = sessions.data?.data ?? [];
  const label = `Sessions of ${application.name}`;
  return (
    <>
      <h3>Sessions</h3>
      <ErrorNote error={sessions.error ?? revoke.error} />
      {sessions.isPending ? (
        <Loading what="sessions" />
      ) : list.length === 0 ? (
        <p className="empty">No session yet: the app makes one with POST /sessions once the owner approved its POST /auth.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label={label} className="scroll-table">
            <TableHead columns={['Bank', 'Status', 'Accounts', 'Valid until (world time)', 'Created (world time)']} actions />
            <tbody>
              {list.map((session) => (
                <tr key={session.id}>
                  <td data-label="Bank">
                    {session.aspsp.name} ({session.aspsp.country})
                    <div className="muted">
                      {session.psuType};{' '}
                      {[session.access.balances && 'balances', session.access.transactions && 'transactions']
                        .filter(Boolean)
                        .join(', ')}
                    </div>
                  </td>
                  <td data-label="Status">
                    <StatusBadge status={session.status} />
                    {session.closedAt && <div className="muted">since {formatDateTime(session.closedAt)}</div>}
                  </td>
                  <td data-label="Accounts">
                    {session.accounts.length === 0 ? (
                      <span className="muted">none</span>
                    ) : (
                      <ul className="plaid-accounts">
                        {session.accounts.map((account) => (
                          <li key={account.uid}>
                            {account.name} <span className="muted">{account.currency}</span>
                          </li>
                        ))}
                      </ul>
                    )}
                  </td>
                  <td data-label="Valid until (world time)">{formatDateTime(session.validUntil)}</td>
                  <td data-label="Created (world time)">{formatDateTime(session.createdAt)}</td>
                  <td className="actions">
                    {session.status !== 'CLOSED' && (
                      <ConfirmButton
                        label="Revoke"
                        question={
                          <>
                            Revoke this session of {application.name}? It is closed now, as when the app deletes it: its accounts
                            no longer answer the app. This cannot be undone.
                          </>
                        }
                        disabled={revoke.isPending}
                        onConfirm={() => revoke.mutate({ id: session.id })}
                      />
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager meta={sessions.data?.meta} onPage={setPage} label={label} />
    </>
  );
}

export function ApplicationPayments({ application }: { application: Application }) {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const payments = useQuery(trpc.enablebanking.listPayments.queryOptions({ id: application.id, page, limit: LIMIT }));
  const list = payments.data?.data ?? [];
  const label = `Payments of ${application.name}`;
  return (
    <>
      <h3>Payments</h3>
      <ErrorNote error={payments.error} />
      {payments.isPending ? (
        <Loading what="payments" />
      ) : list.length === 0 ? (
        <p className="empty">No payment yet: the app asks for one with POST /payments.</p>
      ) : (
        <div className="table-wrap">
          <table aria-label={label} className="scroll-table">
            <TableHead columns={['Status', 'Runs as', { label: 'Amount', num: true }, 'Creditor', 'Created (world time)']} />
            <tbody>
              {list.map((payment) => (
                <tr key={payment.id}>
                  <td data-label="Status">
                    <StatusBadge status={payment.ebStatus} />
                    <div className="muted">{payment.paymentType}</div>
                  </td>
                  <td data-label="Runs as">
                    {payment.payment ? (
                      <>
                        <StatusBadge status={payment.payment.status} /> {payment.payment.scheme}
                        {payment.payment.statusReason && <code> {payment.payment.statusReason.code}</code>}
                        <div className="mono">
                          <Link href={`/payments?payment=${payment.payment.id}`}>{payment.payment.id}</Link>
                        </div>
                      </>
                    ) : (
                      <span className="muted">{payment.status === 'pending' ? 'waiting for your decision' : 'not executed'}</span>
                    )}
                  </td>
                  <td data-label="Amount" className="num">
                    <Money amount={payment.amount} currency={payment.currency} />
                  </td>
                  <td data-label="Creditor">
                    {payment.creditor.name}
                    <div className="mono muted">{formatIban(payment.creditor.iban)}</div>
                  </td>
                  <td data-label="Created (world time)">{formatDateTime(payment.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <Pager meta={payments.data?.meta} onPage={setPage} label={label} />
    </>
  );
}
