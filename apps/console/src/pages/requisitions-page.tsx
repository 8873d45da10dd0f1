/**
 * The world's GoCardless requisitions (docs/faces/gocardless.md): what apps asked for through the GoCardless face,
 * newest first, with GoCardless's status on the world's clock; an undecided one links to its
 * consent page.
 */
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, PageHeader, Pager, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';

const STATUS_NAMES: Record<string, string> = {
  CR: 'created',
  GC: 'giving consent',
  SA: 'selecting accounts',
  LN: 'linked',
  RJ: 'refused',
  EX: 'expired',
};

export function RequisitionsPage() {
  const trpc = useTRPC();
  const [page, setPage] = useState(1);
  const requisitions = useQuery(trpc.gocardless.listRequisitions.queryOptions({ page, limit: 20 }));
  const list = requisitions.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="GoCardless requisitions"
        subtitle={<>What apps asked to read through the GoCardless Bank Account Data face, and where each request stands.</>}
      />
      <section className="card" aria-labelledby="requisition-list">
        <h2 id="requisition-list">Requisitions</h2>
        <ErrorNote error={requisitions.error} />
        {requisitions.isPending ? (
          <Loading what="requisitions" />
        ) : list.length === 0 ? (
          <p className="empty">No app has asked yet.</p>
        ) : (
          <div className="table-wrap">
            <table data-testid="requisitions">
              <thead>
                <tr>
                  <th scope="col">Bank</th>
                  <th scope="col">Reference</th>
                  <th scope="col">Status</th>
                  <th scope="col">Accounts</th>
                  <th scope="col">Access</th>
                  <th scope="col">Created</th>
                  <th scope="col">Since</th>
                </tr>
              </thead>
              <tbody>
                {list.map((requisition) => (
                  <tr key={requisition.id}>
                    <td data-label="Bank" className="mono">
                      {requisition.institutionId}
                    </td>
                    <td data-label="Reference">
                      {['CR', 'GC', 'SA'].includes(requisition.status) ? (
                        <Link href={`/gocardless/requisitions/${requisition.id}`}>{requisition.reference}</Link>
                      ) : (
                        requisition.reference
                      )}
                    </td>
                    <td data-label="Status">
                      <StatusBadge status={requisition.status} /> {STATUS_NAMES[requisition.status]}
                    </td>
                    <td data-label="Accounts">{requisition.accounts}</td>
                    <td data-label="Access">
                      {requisition.accessScope.join(', ')}; {requisition.maxHistoricalDays} days back, for{' '}
                      {requisition.accessValidForDays} days
                    </td>
                    <td data-label="Created">{formatDateTime(requisition.createdAt)}</td>
                    <td data-label="Since">{formatDateTime(requisition.stepAt)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <Pager meta={requisitions.data?.meta} onPage={setPage} label="Requisitions" />
      </section>
    </>
  );
}
