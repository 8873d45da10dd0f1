/**
 * The one consent page behind every aggregator face's link (docs/reference/console.md): it looks like
 * the bank's own page, not the developer console — no console navigation, the bank's name and colour,
 * the requesting app, what it asks for in words, the accounts to share (one per line), where the
 * browser goes next, human step names, and sign-in inside the page. Two faces lead here:
 * - GoCardless (`/console/gocardless/requisitions/:id`), in GoCardless's steps: opening the page is
 *   "giving consent" (`GC`), Continue is "selecting accounts" (`SA`), then approve (`LN`) or decline
 *   (`RJ`, from either step); the browser goes to the app's redirect with `ref`.
 * - Enable Banking (`/console/enablebanking/authorizations/:id`): one step, approve with the accounts
 *   picked or decline; the browser goes to the app's `redirect_url` with `code` (or `error`) and `state`.
 * - Enable Banking payments (`/console/enablebanking/payments/:id`, payment-consent.tsx): the payment,
 *   the account to pay from, Pay or Cancel; the browser goes to `redirect_url` with `state`.
 * The bank's frame, its sign-in and "nothing to decide" are components/bank.tsx.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useId, useState } from 'react';
import { BankFrame, BankSignIn, Decided, hostOf } from '../components/bank.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { Money } from '../components/ui.tsx';
import { useAuth } from '../lib/auth.tsx';
import { formatDate } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { EnableBankingPaymentConsent } from './payment-consent.tsx';

/**
 * GoCardless institutions by id, as the face lists them (apps/api/src/faces/gocardless/institutions.ts);
 * a requisition carries only the id. An unknown id is shown as it is.
 */
const GOCARDLESS_BANKS: Readonly<Record<string, string>> = {
  SANDBOXFINANCE_SFIN0000: 'Sandbox Finance',
  SANDBANK_DATY_SNDBPLP1: 'Bank Przestawionych Dat',
  SANDBANK_PREFIKS_SNDBPLP2: 'Bank Prefiksów',
  SANDBANK_TYTUL_SNDBPLP3: 'Bank Tytułów Przelewów',
  SANDBANK_LIMIT_SNDBPLP4: 'Bank Dziennego Limitu',
  // The banks with personalities (apps/api/src/faces/personalities.ts, docs/faces/personalities.md).
  MBANK_RETAIL_BREXPLPW: 'mBank Retail',
  ING_PL_INGBPLPW: 'ING',
  PKO_BPKOPLPW: 'PKO Bank Polski',
  SANTANDER_PL_WBKPPLPP: 'Santander Bank Polska',
  PEKAO_PKOPPLPW: 'Bank Pekao',
  REVOLUT_REVOLT21: 'Revolut',
};

interface Request {
  appName: string;
  /** What the app asks for, each a phrase ("your balances"). */
  asks: string[];
  /** For how long, a sentence ("Until 29 Dec 2026."). */
  validity: string;
  /** Where the browser goes after the decision. */
  redirect: string;
}

/** What the app asks for, in words, and where the user goes next. */
function RequestSummary({ request }: { request: Request }) {
  return (
    <section className="bank-card" aria-labelledby="consent-title" data-testid="consent-request">
      <h1 id="consent-title">Connect your accounts</h1>
      <p>
        <strong>{request.appName}</strong> asks to see:
      </p>
      <ul className="bank-asks">
        {request.asks.map((ask) => (
          <li key={ask}>{ask}</li>
        ))}
      </ul>
      <p>{request.validity}</p>
      <p className="muted">
        After you decide you go back to <strong data-testid="consent-next">{hostOf(request.redirect)}</strong>.
      </p>
    </section>
  );
}

/** The accounts to share, one per line, all ticked at first; approving sends the ticked ones. */
function AccountPicker({
  pending,
  error,
  onApprove,
  onDecline,
}: {
  pending: boolean;
  error: unknown;
  onApprove: (accountIds: string[]) => void;
  onDecline: () => void;
}) {
  const trpc = useTRPC();
  const accounts = useQuery(trpc.accounts.listAccounts.queryOptions({ page: 1, limit: 100 }));
  const [unpicked, setUnpicked] = useState<ReadonlySet<string>>(new Set());
  const legend = useId();
  if (accounts.error) return <ErrorNote error={accounts.error} />;
  if (!accounts.data) return <p className="muted">Loading your accounts…</p>;
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
    onApprove(picked);
  };
  return (
    <form className="bank-card" aria-labelledby={legend} onSubmit={approve}>
      <h2 id={legend}>Accounts to share</h2>
      {open.length === 0 ? <p className="empty">You have no open accounts.</p> : null}
      <ul className="bank-accounts">
        {open.map((account) => (
          <li key={account.id} className="bank-account">
            <label className="bank-account-line">
              <input type="checkbox" checked={!unpicked.has(account.id)} onChange={() => toggle(account.id)} />
              <span className="bank-account-name">{account.name}</span>
              <Money amount={account.balance} currency={account.currency} />
            </label>
          </li>
        ))}
      </ul>
      {error ? <ErrorNote error={error} /> : null}
      <div className="bank-actions">
        <button type="submit" disabled={pending || picked.length === 0}>
          Approve
        </button>
        <button type="button" className="secondary" disabled={pending} onClick={onDecline}>
          Decline
        </button>
      </div>
    </form>
  );
}

const GOCARDLESS_SCOPES: Record<string, string> = {
  details: 'your account details (name and IBAN)',
  balances: 'your balances',
};
const GOCARDLESS_STEPS = ['Review the request', 'Choose accounts', 'Back to the app'];
const GOCARDLESS_VIA = 'GoCardless Bank Account Data';
/** The requesting app: its API key's name (older requisitions kept none). */
const gocardlessAppName = (name: string | null) => (name ? `${name} (via ${GOCARDLESS_VIA})` : `An app using ${GOCARDLESS_VIA}`);

/** A GoCardless requisition's consent, signed in. */
function GoCardlessConsent({ id }: { id: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const requisition = useQuery(trpc.gocardless.getRequisition.queryOptions({ id }));
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
  const decide = useMutation(
    trpc.gocardless.decideRequisition.mutationOptions({ onSuccess: ({ data }) => window.location.assign(data.redirect) }),
  );
  const asked = requisition.data?.data;
  const bank = {
    name: asked ? (GOCARDLESS_BANKS[asked.institutionId] ?? asked.institutionId) : 'Your bank',
    via: GOCARDLESS_VIA,
  };
  const choosing = asked?.status === 'SA';
  const decided = asked !== undefined && !['CR', 'GC', 'SA'].includes(asked.status);
  const frame = (children: ReactNode) => (
    <BankFrame bank={bank} steps={GOCARDLESS_STEPS} current={decided ? 2 : choosing ? 1 : 0}>
      {children}
    </BankFrame>
  );
  if (requisition.error) return frame(<ErrorNote error={requisition.error} />);
  if (step.error) return frame(<ErrorNote error={step.error} />);
  if (!asked) return frame(<p className="muted">Loading the request…</p>);
  if (decided) return frame(<Decided what="This request has been decided already." />);
  const asks = [
    ...asked.accessScope.filter((scope) => scope !== 'transactions').map((scope) => GOCARDLESS_SCOPES[scope] ?? scope),
    ...(asked.accessScope.includes('transactions') ? [`your transactions for the last ${asked.maxHistoricalDays} days`] : []),
  ];
  const validity = `Access lasts ${asked.accessValidForDays} days from your approval.`;
  const decline = () => decide.mutate({ id, approve: false });
  return frame(
    <>
      <RequestSummary request={{ appName: gocardlessAppName(asked.appName), asks, validity, redirect: asked.redirect }} />
      {choosing ? (
        <AccountPicker
          pending={decide.isPending}
          error={decide.error}
          onApprove={(accountIds) => decide.mutate({ id, approve: true, accountIds })}
          onDecline={decline}
        />
      ) : (
        <div className="bank-card">
          <div className="bank-actions">
            <button type="button" disabled={step.isPending} onClick={() => advance({ id, step: 'SA' })}>
              Continue
            </button>
            <button type="button" className="secondary" disabled={decide.isPending} onClick={decline}>
              Decline
            </button>
          </div>
          {decide.error ? <ErrorNote error={decide.error} /> : null}
        </div>
      )}
    </>,
  );
}

/** An Enable Banking authorization's consent, signed in. */
function EnableBankingConsent({ id }: { id: string }) {
  const trpc = useTRPC();
  const authorization = useQuery(trpc.enablebanking.getAuthorization.queryOptions({ id }));
  const decide = useMutation(
    trpc.enablebanking.decideAuthorization.mutationOptions({ onSuccess: ({ data }) => window.location.assign(data.redirect) }),
  );
  const asked = authorization.data?.data;
  const bank = { name: asked?.aspsp.name ?? 'Your bank', via: 'Enable Banking' };
  const decided = asked !== undefined && asked.status !== 'pending';
  const frame = (children: ReactNode) => (
    <BankFrame bank={bank} steps={['Review and choose accounts', 'Back to the app']} current={decided ? 1 : 0}>
      {children}
    </BankFrame>
  );
  if (authorization.error) return frame(<ErrorNote error={authorization.error} />);
  if (!asked) return frame(<p className="muted">Loading the request…</p>);
  if (decided) return frame(<Decided what="This request has been decided already." />);
  const asks = [
    'your account details (name and IBAN)',
    ...(asked.access.balances ? ['your balances'] : []),
    ...(asked.access.transactions ? ['your transactions'] : []),
  ];
  const validity = `Access lasts until ${formatDate(asked.validUntil)}.`;
  return frame(
    <>
      <RequestSummary request={{ appName: asked.application.name, asks, validity, redirect: asked.redirectUrl }} />
      <AccountPicker
        pending={decide.isPending}
        error={decide.error}
        onApprove={(accountIds) => decide.mutate({ id, approve: true, accountIds })}
        onDecline={() => decide.mutate({ id, approve: false })}
      />
    </>,
  );
}

/** The consent page of a face: the bank's sign-in until the owner is signed in, then the request. */
export type ConsentFace = 'gocardless' | 'enablebanking' | 'enablebanking-payment';

export function ConsentPage({ face, id }: { face: ConsentFace; id: string }) {
  const { user } = useAuth();
  if (!user) {
    return (
      <BankFrame
        bank={{ name: 'Your bank', via: face === 'gocardless' ? GOCARDLESS_VIA : 'Enable Banking' }}
        steps={[]}
        current={0}
      >
        <BankSignIn />
      </BankFrame>
    );
  }
  if (face === 'gocardless') return <GoCardlessConsent id={id} />;
  return face === 'enablebanking' ? <EnableBankingConsent id={id} /> : <EnableBankingPaymentConsent id={id} />;
}
