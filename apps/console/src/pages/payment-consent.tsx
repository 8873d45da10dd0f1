/**
 * An Enable Banking payment's consent (`/console/enablebanking/payments/:id`, docs/faces/enablebanking.md#payments),
 * in the bank's page: who asks, the amount with its currency, the creditor's name and IBAN, the
 * remittance, how it travels, the account to pay from (one per line, in the payment's currency; the one
 * the app named, else the first, chosen), and Pay or Cancel. Either way the browser goes to the app's
 * `redirect_url` with its `state` (and `error=access_denied` after Cancel).
 */
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useId, useState } from 'react';
import { BankFrame, Decided, hostOf } from '../components/bank.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { Money } from '../components/ui.tsx';
import { useTRPC } from '../lib/trpc.ts';

const HOW: Readonly<Record<string, string>> = {
  SEPA: 'SEPA transfer, on the next TARGET business day',
  INST_SEPA: 'SEPA Instant transfer, within seconds',
  DOMESTIC: 'Domestic transfer (Elixir), in the next session',
};

/** An IBAN in its print form: groups of four. */
const printIban = (iban: string) => iban.replace(/(.{4})(?=.)/g, '$1 ');

export function EnableBankingPaymentConsent({ id }: { id: string }) {
  const trpc = useTRPC();
  const request = useQuery(trpc.enablebanking.getPayment.queryOptions({ paymentId: id }));
  const accounts = useQuery(trpc.accounts.listAccounts.queryOptions({ page: 1, limit: 100 }));
  const decide = useMutation(
    trpc.enablebanking.decidePayment.mutationOptions({ onSuccess: ({ data }) => window.location.assign(data.redirect) }),
  );
  const [chosen, setChosen] = useState<string | null>(null);
  const legend = useId();
  const asked = request.data?.data;
  const bank = { name: asked?.aspsp.name ?? 'Your bank', via: 'Enable Banking' };
  const decided = asked !== undefined && asked.status !== 'pending';
  const frame = (children: ReactNode) => (
    <BankFrame bank={bank} steps={['Review and pay', 'Back to the app']} current={decided ? 1 : 0}>
      {children}
    </BankFrame>
  );
  if (request.error) return frame(<ErrorNote error={request.error} />);
  if (accounts.error) return frame(<ErrorNote error={accounts.error} />);
  if (!asked || !accounts.data) return frame(<p className="muted">Loading the payment…</p>);
  if (decided) return frame(<Decided what="This payment has been decided already." />);
  const payable = accounts.data.data.filter(
    (account) =>
      account.status === 'open' &&
      account.currency === asked.currency &&
      (asked.debtorAccountId === null || account.id === asked.debtorAccountId),
  );
  const from = chosen ?? payable[0]?.id ?? null;
  const pay = (event: FormEvent) => {
    event.preventDefault();
    if (from) decide.mutate({ paymentId: id, approve: true, accountId: from });
  };
  return frame(
    <>
      <section className="bank-card" aria-labelledby="payment-title" data-testid="payment-request">
        <h1 id="payment-title">Confirm a payment</h1>
        <p>
          <strong>{asked.application.name}</strong> asks you to pay:
        </p>
        <p className="bank-amount" data-testid="payment-amount">
          <Money amount={asked.amount} currency={asked.currency} />
        </p>
        <dl className="bank-facts">
          <dt>To</dt>
          <dd data-testid="payment-creditor">{asked.creditor.name}</dd>
          <dt>IBAN</dt>
          <dd data-testid="payment-iban">{printIban(asked.creditor.iban)}</dd>
          <dt>Title</dt>
          <dd data-testid="payment-remittance">{asked.remittance || '—'}</dd>
          <dt>How</dt>
          <dd>{HOW[asked.paymentType] ?? asked.paymentType}</dd>
        </dl>
        <p className="muted">
          After you decide you go back to <strong data-testid="consent-next">{hostOf(asked.redirectUrl)}</strong>.
        </p>
      </section>
      <form className="bank-card" aria-labelledby={legend} onSubmit={pay}>
        <h2 id={legend}>Pay from</h2>
        {payable.length === 0 ? <p className="empty">You have no open account in {asked.currency} to pay from.</p> : null}
        <ul className="bank-accounts">
          {payable.map((account) => (
            <li key={account.id} className="bank-account">
              <label className="bank-account-line">
                <input type="radio" name="from" checked={account.id === from} onChange={() => setChosen(account.id)} />
                <span className="bank-account-name">{account.name}</span>
                <Money amount={account.availableBalance} currency={account.currency} />
              </label>
            </li>
          ))}
        </ul>
        {decide.error ? <ErrorNote error={decide.error} /> : null}
        <div className="bank-actions">
          <button type="submit" disabled={decide.isPending || from === null}>
            Pay
          </button>
          <button
            type="button"
            className="secondary"
            disabled={decide.isPending}
            onClick={() => decide.mutate({ paymentId: id, approve: false })}
          >
            Cancel
          </button>
        </div>
      </form>
    </>,
  );
}
