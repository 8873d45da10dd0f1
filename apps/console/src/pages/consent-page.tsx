/**
 * The consent page behind a GoCardless requisition's `link` (docs/faces/gocardless.md), in GoCardless's steps: opening
 * it shows what the app asks for (institution, scopes, days; the requisition becomes `GC`), Continue
 * goes on to the owner's open accounts to pick (`SA`), then approve (`LN`) or refuse (`RJ`, from
 * either step) and the browser goes to the app's redirect with `ref`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, Money, PageHeader } from '../components/ui.tsx';
import { useTRPC } from '../lib/trpc.ts';

const SCOPE_NAMES: Record<string, string> = {
  balances: 'balances',
  details: 'account details (IBAN, name)',
  transactions: 'transactions',
};

export function ConsentPage({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const requisition = useQuery(trpc.gocardless.getRequisition.queryOptions({ id }));
  const accounts = useQuery(trpc.accounts.listAccounts.queryOptions({ page: 1, limit: 100 }));
  const step = useMutation(
    trpc.gocardless.advanceRequisition.mutationOptions({
      onSuccess: (answer) => queryClient.setQueryData(trpc.gocardless.getRequisition.queryKey({ id }), answer),
    }),
  );
  const created = requisition.data?.data.status === 'CR';
  const { mutate: advance } = step;
  // Opening the page is GoCardless's "giving consent" step.
  useEffect(() => {
    if (created) advance({ id, step: 'GC' });
  }, [created, advance, id]);
  const [unpicked, setUnpicked] = useState<ReadonlySet<string>>(new Set());
  const decide = useMutation(
    trpc.gocardless.decideRequisition.mutationOptions({ onSuccess: ({ data }) => window.location.assign(data.redirect) }),
  );
  if (requisition.error) return <ErrorNote error={requisition.error} />;
  if (step.error) return <ErrorNote error={step.error} />;
  if (!requisition.data || !accounts.data) return <Loading what="the request" />;
  const asked = requisition.data.data;
  const open = accounts.data.data.filter((account) => account.status === 'open');
  const picked = open.filter((account) => !unpicked.has(account.id)).map((account) => account.id);
  const toggle = (accountId: string) =>
    setUnpicked((before) => {
      const next = new Set(before);
      if (next.has(accountId)) next.delete(accountId);
      else next.add(accountId);
      return next;
    });
  const approve = (event: FormEvent) => {
    event.preventDefault();
    decide.mutate({ id, approve: true, accountIds: picked });
  };
  // Refusing is possible at either step: before picking accounts and instead of approving.
  const refuse = (
    <button type="button" className="secondary" disabled={decide.isPending} onClick={() => decide.mutate({ id, approve: false })}>
      Refuse
    </button>
  );

  return (
    <>
      <PageHeader
        title="Connect your accounts"
        subtitle={<>An app asks to read your accounts through GoCardless Bank Account Data.</>}
      />
      <section className="card" aria-labelledby="asked">
        <h2 id="asked">What the app asks for</h2>
        <dl data-testid="consent-request">
          <dt>Bank</dt>
          <dd>{asked.institutionId}</dd>
          <dt>Access to</dt>
          <dd>{asked.accessScope.map((scope) => SCOPE_NAMES[scope] ?? scope).join(', ')}</dd>
          <dt>History</dt>
          <dd>{asked.maxHistoricalDays} days back</dd>
          <dt>For</dt>
          <dd>{asked.accessValidForDays} days from your approval</dd>
          <dt>Status</dt>
          <dd>{asked.status}</dd>
        </dl>
      </section>
      {asked.status === 'CR' || asked.status === 'GC' ? (
        <div className="card row">
          <button type="button" disabled={step.isPending} onClick={() => advance({ id, step: 'SA' })}>
            Continue
          </button>
          {refuse}
          {decide.error ? <ErrorNote error={decide.error} /> : null}
        </div>
      ) : asked.status === 'SA' ? (
        <form className="card" aria-label="Your decision" onSubmit={approve}>
          <fieldset>
            <legend>Accounts to share</legend>
            {open.length === 0 ? <p className="empty">You have no open accounts.</p> : null}
            {open.map((account) => (
              <label key={account.id} className="check">
                <input type="checkbox" checked={!unpicked.has(account.id)} onChange={() => toggle(account.id)} />
                {account.name} <Money amount={account.balance} currency={account.currency} />
              </label>
            ))}
          </fieldset>
          {decide.error ? <ErrorNote error={decide.error} /> : null}
          <div className="row">
            <button type="submit" disabled={decide.isPending || picked.length === 0}>
              Approve
            </button>
            {refuse}
          </div>
        </form>
      ) : (
        <p className="empty">This request has been decided already.</p>
      )}
    </>
  );
}
