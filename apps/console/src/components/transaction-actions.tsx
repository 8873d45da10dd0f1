/**
 * What a person can do to one transaction: post a pending one (optionally for another final
 * amount, e.g. with a tip), void a pending one, reverse a posted one (in full or in part), and
 * edit its description, merchant and category. Each sends the version it was made on
 * (`ifVersion`), so a change made meanwhile (e.g. an edit in another tab) is refused with
 * VERSION_CONFLICT instead of being overwritten; the same step done meanwhile (the clock settled
 * or expired it) answers with the transaction as it is.
 */

import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { parseAmount } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { Category, Transaction } from '../lib/types.ts';
import { CategorySelect } from './category-select.tsx';
import { ConfirmButton } from './confirm-button.tsx';
import { ErrorNote } from './error-note.tsx';

type Mode = 'none' | 'post' | 'reverse' | 'edit';

export function TransactionActions({ transaction }: { transaction: Transaction }) {
  const trpc = useTRPC();
  const [mode, setMode] = useState<Mode>('none');
  const [amountText, setAmountText] = useState('');
  const [invalid, setInvalid] = useState(false);
  const [description, setDescription] = useState(transaction.description);
  const [merchant, setMerchant] = useState(transaction.merchant ?? '');
  const [category, setCategory] = useState<Category | ''>(transaction.category ?? '');
  const done = () => {
    setMode('none');
    setAmountText(''); // what to refetch is derived from the mutation (lib/query-client.ts)
  };
  const post = useMutation(trpc.transactions.postTransaction.mutationOptions({ onSuccess: done }));
  const voidIt = useMutation(trpc.transactions.voidTransaction.mutationOptions({ onSuccess: done }));
  const reverse = useMutation(trpc.transactions.reverseTransaction.mutationOptions({ onSuccess: done }));
  const patch = useMutation(trpc.transactions.patchTransaction.mutationOptions({ onSuccess: done }));
  const busy = post.isPending || voidIt.isPending || reverse.isPending || patch.isPending;
  const error = post.error ?? voidIt.error ?? reverse.error ?? patch.error;
  const guarded = { id: transaction.id, ifVersion: transaction.version };
  const toggle = (next: Mode) => setMode(mode === next ? 'none' : next);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (mode === 'edit') {
      patch.mutate({ ...guarded, description, merchant: merchant || null, category: category || null });
      return;
    }
    const magnitude = amountText ? parseAmount(amountText, transaction.currency) : undefined;
    const bad = amountText !== '' && (magnitude === undefined || magnitude <= 0);
    setInvalid(bad);
    if (bad) return;
    if (mode === 'post') {
      const amount = magnitude === undefined ? {} : { amount: transaction.amount < 0 ? -magnitude : magnitude };
      post.mutate({ ...guarded, ...amount });
    }
    if (mode === 'reverse') reverse.mutate({ ...guarded, ...(magnitude === undefined ? {} : { amount: magnitude }) });
  };

  const label =
    mode === 'post'
      ? `Final amount in ${transaction.currency} (empty: as authorised)`
      : `Amount to give back in ${transaction.currency} (empty: all that is left)`;
  return (
    <div className="stack">
      <div className="row">
        {transaction.status === 'pending' && (
          <>
            <button
              type="button"
              className="small"
              disabled={busy}
              aria-expanded={mode === 'post'}
              onClick={() => toggle('post')}
            >
              Post…
            </button>
            <ConfirmButton
              label="Void"
              question="Void this pending transaction? The hold is released and it leaves the default history; this cannot be undone."
              disabled={busy}
              onConfirm={() => voidIt.mutate(guarded)}
            />
          </>
        )}
        {transaction.status === 'posted' && transaction.reversalOf === null && (
          <button
            type="button"
            className="secondary small"
            disabled={busy}
            aria-expanded={mode === 'reverse'}
            onClick={() => toggle('reverse')}
          >
            Reverse…
          </button>
        )}
        {transaction.status !== 'voided' && (
          <button
            type="button"
            className="secondary small"
            disabled={busy}
            aria-expanded={mode === 'edit'}
            onClick={() => toggle('edit')}
          >
            Edit…
          </button>
        )}
      </div>
      {mode !== 'none' && (
        <form className="stack" onSubmit={submit} aria-label={`${mode} the transaction`}>
          {mode === 'edit' ? (
            <>
              <label className="field">
                <span>Description</span>
                <input maxLength={500} value={description} onChange={(e) => setDescription(e.target.value)} />
              </label>
              <label className="field">
                <span>Merchant</span>
                <input maxLength={200} value={merchant} onChange={(e) => setMerchant(e.target.value)} />
              </label>
              <CategorySelect value={category} onChange={setCategory} />
            </>
          ) : (
            <label className="field">
              <span>{label}</span>
              <input
                inputMode="decimal"
                value={amountText}
                aria-invalid={invalid || undefined}
                onChange={(e) => setAmountText(e.target.value)}
              />
              {invalid && <small>Enter a positive amount with at most two decimals.</small>}
            </label>
          )}
          <button type="submit" className="small" disabled={busy}>
            {mode === 'post' ? 'Post it' : mode === 'reverse' ? 'Reverse it' : 'Save'}
          </button>
        </form>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
