/**
 * Books a simulated transaction on one account: money in or out, posted now or pending (a card
 * authorisation that holds the money until it posts, is voided, or settles/expires by itself),
 * an amount in złoty ("12,50"), description, merchant, category, and optionally a past date or
 * an idempotency key. Success refreshes the account, its history and the accounts list.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useId, useState } from 'react';
import { decimalsRule, exampleAmount, formatMoney, localInputToIso, parseAmount } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { Category } from '../lib/types.ts';
import { CategorySelect } from './category-select.tsx';
import { ErrorNote } from './error-note.tsx';

export function SimulateForm({ accountId, currency }: { accountId: string; currency: string }) {
  const trpc = useTRPC();
  const id = useId();
  const [direction, setDirection] = useState<'debit' | 'credit'>('debit');
  const [status, setStatus] = useState<'posted' | 'pending'>('posted');
  const [merchant, setMerchant] = useState('');
  const [category, setCategory] = useState<Category | ''>('');
  const [settleAfter, setSettleAfter] = useState('');
  const [expireAfter, setExpireAfter] = useState('');
  const [amountText, setAmountText] = useState('');
  const [description, setDescription] = useState('');
  const [date, setDate] = useState('');
  const [externalTxnId, setExternalTxnId] = useState('');
  const [invalid, setInvalid] = useState(false);
  const simulate = useMutation(
    trpc.simulations.simulateTransaction.mutationOptions({
      onSuccess: () => {
        setAmountText('');
        setDescription('');
        setMerchant('');
        setExternalTxnId('');
      },
    }),
  );

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parseAmount(amountText, currency);
    setInvalid(minor === undefined || minor <= 0);
    if (minor === undefined || minor <= 0) return;
    const isoDate = localInputToIso(date);
    simulate.mutate({
      accountId,
      amount: direction === 'debit' ? -minor : minor,
      status,
      ...(description ? { description } : {}),
      ...(merchant ? { merchant } : {}),
      ...(category ? { category } : {}),
      ...(status === 'pending' && settleAfter ? { settleAfter } : {}),
      ...(status === 'pending' && expireAfter ? { expireAfter } : {}),
      ...(isoDate ? { date: isoDate } : {}),
      ...(externalTxnId ? { externalTxnId } : {}),
    });
  };

  const result = simulate.data?.data;
  return (
    <form className="stack" onSubmit={submit} aria-label="Simulate a transaction">
      <fieldset>
        <legend>Direction</legend>
        <div className="choices">
          <label>
            <input type="radio" name={`${id}-dir`} checked={direction === 'debit'} onChange={() => setDirection('debit')} />
            Money out (debit)
          </label>
          <label>
            <input type="radio" name={`${id}-dir`} checked={direction === 'credit'} onChange={() => setDirection('credit')} />
            Money in (credit)
          </label>
        </div>
      </fieldset>
      <fieldset>
        <legend>Kind</legend>
        <div className="choices">
          <label>
            <input type="radio" name={`${id}-status`} checked={status === 'posted'} onChange={() => setStatus('posted')} />
            Posted now
          </label>
          <label>
            <input type="radio" name={`${id}-status`} checked={status === 'pending'} onChange={() => setStatus('pending')} />
            Pending (card authorisation)
          </label>
        </div>
      </fieldset>
      <label className="field">
        <span>Amount ({currency})</span>
        <input
          inputMode="decimal"
          required
          value={amountText}
          onChange={(e) => setAmountText(e.target.value)}
          placeholder={exampleAmount(currency)}
          aria-invalid={invalid || undefined}
          aria-describedby={`${id}-amount-help`}
        />
        <small id={`${id}-amount-help`}>
          {invalid ? `Enter a positive amount with ${decimalsRule(currency)}.` : `e.g. ${exampleAmount(currency)}`}
        </small>
      </label>
      <label className="field">
        <span>Description</span>
        <input maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} placeholder="Coffee" />
      </label>
      <label className="field">
        <span>Merchant</span>
        <input maxLength={200} value={merchant} onChange={(e) => setMerchant(e.target.value)} placeholder="Biedronka" />
      </label>
      <CategorySelect value={category} onChange={setCategory} />
      <details>
        <summary>More options</summary>
        <div className="stack">
          {status === 'pending' && (
            <>
              <DurationSelect label="Posts by itself after" value={settleAfter} onChange={setSettleAfter} />
              <DurationSelect label="Expires (voids) after" value={expireAfter} onChange={setExpireAfter} />
            </>
          )}
          <label className="field">
            <span>Date (your time zone; default now)</span>
            <input type="datetime-local" value={date} onChange={(e) => setDate(e.target.value)} />
          </label>
          <label className="field">
            <span>External id (idempotency key)</span>
            <input maxLength={128} value={externalTxnId} onChange={(e) => setExternalTxnId(e.target.value)} />
          </label>
        </div>
      </details>
      <ErrorNote error={simulate.error} />
      {result && !simulate.isPending && (
        <div className="note success" role="status">
          {result.transaction.status === 'pending'
            ? `Pending ${formatMoney(result.transaction.amount, result.transaction.currency)}, held until it posts.`
            : `Booked ${formatMoney(result.transaction.amount, result.transaction.currency)}.`}
          {` Balance ${formatMoney(result.balance, result.transaction.currency)}, available ${formatMoney(result.availableBalance, result.transaction.currency)}.`}
        </div>
      )}
      <button type="submit" disabled={simulate.isPending}>
        Simulate
      </button>
    </form>
  );
}

/** ISO 8601 durations as the API takes them, measured on the user's clock. */
const DURATIONS = [
  ['', 'Never'],
  ['PT1H', '1 hour'],
  ['P1D', '1 day'],
  ['P3D', '3 days'],
  ['P7D', '1 week'],
] as const;

function DurationSelect({ label, value, onChange }: { label: string; value: string; onChange: (value: string) => void }) {
  return (
    <label className="field">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(e.target.value)}>
        {DURATIONS.map(([duration, text]) => (
          <option key={duration} value={duration}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}
