/** One account: its figures, its balance over time, the simulate form, its history with filters, and closing it. */
import { useQuery } from '@tanstack/react-query';
import { Link } from 'wouter';
import { BalanceChart } from '../components/balance-chart.tsx';
import { CloseAccountForm } from '../components/close-account-form.tsx';
import { CopyButton } from '../components/copy-button.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { SchedulesPanel } from '../components/schedules-panel.tsx';
import { SimulateForm } from '../components/simulate-form.tsx';
import { StatementForm } from '../components/statement-form.tsx';
import { TransactionPanel } from '../components/transaction-panel.tsx';
import { TransactionsTable } from '../components/transactions-table.tsx';
import { Loading, Money, PageHeader, StatusBadge } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

export function AccountPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const account = useQuery(trpc.accounts.getAccount.queryOptions({ id }));
  // The selected transaction is in the address (`?tx=`): a reload or a shared link opens it again.
  const url = useUrlState();
  const selectedId = url.get('tx') || undefined;
  const data = account.data?.data;
  if (account.error) return <ErrorNote error={account.error} />;
  if (!data) return <Loading what="the account" />;
  return (
    <>
      <p>
        <Link href="/">← Accounts</Link>
      </p>
      <PageHeader
        title={data.name}
        subtitle={
          <>
            Opened {formatDateTime(data.createdAt)} (world time) · <span className="mono">{data.id}</span>{' '}
            <CopyButton text={data.id} label="Copy account id" />
          </>
        }
      >
        <StatusBadge status={data.status} />
      </PageHeader>
      <dl className="figures">
        <div className="figure">
          <dt>Balance</dt>
          <dd data-testid="balance">
            <Money amount={data.balance} currency={data.currency} />
          </dd>
        </div>
        <div className="figure">
          <dt>Held by pending debits</dt>
          <dd data-testid="held">
            <Money amount={data.heldAmount} currency={data.currency} />
          </dd>
        </div>
        <div className="figure">
          <dt>Available</dt>
          <dd data-testid="available">
            <Money amount={data.availableBalance} currency={data.currency} />
          </dd>
        </div>
      </dl>
      <BalanceChart accountId={id} />
      <div className="grid-2">
        <section className="card" aria-labelledby="history">
          <h2 id="history">Transactions</h2>
          <TransactionsTable accountId={id} selectedId={selectedId} onSelect={(tx) => url.set({ tx }, { push: true })} />
        </section>
        <div className="stack">
          {selectedId && (
            <TransactionPanel key={selectedId} id={selectedId} onClose={() => url.set({ tx: undefined }, { push: true })} />
          )}
          {data.status === 'open' && (
            <section className="card" aria-labelledby="simulate">
              <h2 id="simulate">Simulate</h2>
              <SimulateForm accountId={id} currency={data.currency} />
            </section>
          )}
          <SchedulesPanel accountId={id} currency={data.currency} open={data.status === 'open'} />
          <StatementForm accountId={id} />
          {data.status === 'open' && <CloseAccountForm account={data} />}
        </div>
      </div>
    </>
  );
}
