/**
 * Payments (docs/concepts/payments.md): the world's payments with their filters, the selected one's
 * panel (status timeline, cancel, simulated rejection or return), a form to make one, and the
 * clearing calendar. The selected payment is in the address (`?payment=`), like every filter.
 */
import { useQuery } from '@tanstack/react-query';
import { ClearingCalendar } from '../components/clearing-calendar.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { PaymentForm } from '../components/payment-form.tsx';
import { PaymentPanel } from '../components/payment-panel.tsx';
import { PaymentsTable } from '../components/payments-table.tsx';
import { Loading, PageHeader } from '../components/ui.tsx';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

/** The most accounts the form and the filters offer (the API's page bound). */
const ACCOUNTS_LIMIT = 200;

export function PaymentsPage() {
  const trpc = useTRPC();
  const accounts = useQuery(trpc.accounts.listAccounts.queryOptions({ page: 1, limit: ACCOUNTS_LIMIT }));
  const url = useUrlState();
  const selectedId = url.get('payment') || undefined;
  const select = (payment: string | undefined) => url.set({ payment }, { push: true });
  const list = accounts.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Payments"
        subtitle="Money your accounts send: to each other at once, or to an IBAN over Elixir or SEPA on the clearing calendar, with ISO 20022 statuses (RCVD → ACTC → ACSP → ACSC, or RJCT with a reason, or CANC). Times are world time."
      />
      <ErrorNote error={accounts.error} />
      <div className="grid-2">
        <PaymentsTable accounts={list} selectedId={selectedId} onSelect={select} />
        <div className="stack">
          {selectedId && <PaymentPanel key={selectedId} id={selectedId} accounts={list} onClose={() => select(undefined)} />}
          <section className="card" aria-labelledby="make-payment">
            <h2 id="make-payment">Make a payment</h2>
            {accounts.data ? <PaymentForm accounts={list} onMade={select} /> : <Loading what="your accounts" />}
          </section>
        </div>
      </div>
      <ClearingCalendar />
    </>
  );
}
