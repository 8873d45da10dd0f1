/**
 * Makes a payment (`payments.createPayment`): from one of the world's open accounts, to another of
 * them (instant, `internal`) or to an IBAN with the creditor's name over a scheme (by default the
 * currency's: PLN Elixir, EUR SEPA). The amount is typed in the source account's currency, which is
 * the payment's (any other is refused by the API). A payment the bank refuses is still made, with
 * RJCT and its reason: the answer says so, and the list shows it.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { decimalsRule, exampleAmount, formatMoney, parseAmount } from '../lib/format.ts';
import { SCHEME_LABELS, STATUS_LABELS } from '../lib/payments.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { AccountItem, Payment } from '../lib/types.ts';
import { ErrorNote } from './error-note.tsx';

type ExternalScheme = Exclude<Payment['scheme'], 'internal'>;

/** The schemes that carry a currency (the first is its default); none for other currencies. */
const SCHEMES_OF: Record<string, ExternalScheme[]> = {
  PLN: ['elixir', 'express_elixir'],
  EUR: ['sepa', 'sepa_instant'],
};

export function PaymentForm({ accounts, onMade }: { accounts: AccountItem[]; onMade: (paymentId: string) => void }) {
  const trpc = useTRPC();
  const id = useId();
  const open = accounts.filter((account) => account.status === 'open');
  const [fromId, setFromId] = useState('');
  const from = open.find((account) => account.id === fromId) ?? open[0];
  const [kind, setKind] = useState<'own' | 'iban'>('iban');
  const [toId, setToId] = useState('');
  const [iban, setIban] = useState('');
  const [name, setName] = useState('');
  const [amountText, setAmountText] = useState('');
  const [scheme, setScheme] = useState<ExternalScheme | ''>('');
  const [description, setDescription] = useState('');
  const [invalid, setInvalid] = useState(false);
  const create = useMutation(
    trpc.payments.createPayment.mutationOptions({
      onSuccess: ({ data }) => {
        setAmountText('');
        setDescription('');
        onMade(data.id);
      },
    }),
  );
  const others = open.filter((account) => account.id !== from?.id);
  const to = others.find((account) => account.id === toId) ?? others[0];
  const currency = from?.currency ?? 'PLN';
  const schemes = SCHEMES_OF[currency] ?? [];

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parseAmount(amountText, currency);
    setInvalid(minor === undefined || minor <= 0);
    if (!from || minor === undefined || minor <= 0) return;
    const common = { fromAccountId: from.id, amount: minor, currency, ...(description ? { description } : {}) };
    if (kind === 'own') {
      if (to) create.mutate({ ...common, to: { accountId: to.id } });
      return;
    }
    create.mutate({ ...common, to: { iban, name }, ...(scheme && schemes.includes(scheme) ? { scheme } : {}) });
  };

  if (open.length === 0) return <p className="muted">Open an account first: a payment is made from one of yours.</p>;
  const made = create.data?.data;
  return (
    <form className="stack" onSubmit={submit} aria-label="Make a payment">
      <label className="field">
        <span>From account</span>
        <select value={from?.id ?? ''} onChange={(e) => setFromId(e.target.value)}>
          {open.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name} · {formatMoney(account.availableBalance, account.currency)} available
            </option>
          ))}
        </select>
      </label>
      <fieldset>
        <legend>To</legend>
        <div className="choices">
          <label>
            <input type="radio" name={`${id}-to`} checked={kind === 'iban'} onChange={() => setKind('iban')} />
            An IBAN (anyone else)
          </label>
          <label>
            <input
              type="radio"
              name={`${id}-to`}
              checked={kind === 'own'}
              disabled={others.length === 0}
              onChange={() => setKind('own')}
            />
            Another of my accounts
          </label>
        </div>
      </fieldset>
      {kind === 'own' ? (
        <label className="field">
          <span>To account</span>
          <select value={to?.id ?? ''} onChange={(e) => setToId(e.target.value)}>
            {others.map((account) => (
              <option key={account.id} value={account.id}>
                {account.name} ({account.currency})
              </option>
            ))}
          </select>
          {to && to.currency !== currency && <small>Converted at the world's mid rate less a 0.5 % spread.</small>}
        </label>
      ) : (
        <div className="row">
          <label className="field grow">
            <span>IBAN</span>
            <input
              required
              maxLength={50}
              autoComplete="off"
              spellCheck={false}
              placeholder="PL61 1090 1014 0000 0712 1981 2874"
              value={iban}
              onChange={(e) => setIban(e.target.value)}
            />
          </label>
          <label className="field grow">
            <span>Creditor's name</span>
            <input required maxLength={140} value={name} onChange={(e) => setName(e.target.value)} />
          </label>
        </div>
      )}
      <div className="row">
        <label className="field">
          <span>Amount ({currency})</span>
          <input
            required
            inputMode="decimal"
            placeholder={exampleAmount(currency)}
            value={amountText}
            aria-invalid={invalid || undefined}
            onChange={(e) => setAmountText(e.target.value)}
          />
          {invalid && <small>Enter a positive amount with {decimalsRule(currency)}.</small>}
        </label>
        {kind === 'iban' && (
          <label className="field">
            <span>Scheme</span>
            <select value={scheme} onChange={(e) => setScheme(e.target.value as ExternalScheme | '')}>
              <option value="">{schemes[0] ? `Default: ${SCHEME_LABELS[schemes[0]]}` : `None carries ${currency}`}</option>
              {schemes.map((value) => (
                <option key={value} value={value}>
                  {SCHEME_LABELS[value]}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>
      <label className="field">
        <span>Description</span>
        <input maxLength={140} value={description} onChange={(e) => setDescription(e.target.value)} />
      </label>
      <div className="row">
        <button type="submit" disabled={create.isPending || (kind === 'own' && !to)}>
          Send payment
        </button>
      </div>
      <ErrorNote error={create.error} />
      {made && !create.isPending && !create.error && (
        <p className="note success" role="status" data-testid="payment-made">
          Payment of {formatMoney(made.amount, made.currency)} made: {made.status} ({STATUS_LABELS[made.status]}
          {made.statusReason ? `: ${made.statusReason.code} ${made.statusReason.message}` : ''}).
        </p>
      )}
    </form>
  );
}
