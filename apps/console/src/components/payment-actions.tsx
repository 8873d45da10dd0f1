/**
 * What can be done to one payment now (lib/payments.ts `actionsOf`): cancel it before its session
 * (`payments.cancelPayment`, ACTC → CANC), or play the receiving side: reject it with an ISO reason
 * while it is accepted or clearing (`simulations.simulatePaymentRejection`) or return a settled one
 * (`simulations.simulatePaymentReturn`). The API answers the payment as it is now; the panel and the
 * list refetch (lib/query-client.ts).
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { actionsOf, REASON_CODES } from '../lib/payments.ts';
import { useTRPC } from '../lib/trpc.ts';
import type { Payment } from '../lib/types.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { ErrorNote } from './error-note.tsx';

export function PaymentActions({ payment }: { payment: Payment }) {
  const trpc = useTRPC();
  const [mode, setMode] = useState<'none' | 'reject' | 'return'>('none');
  const [reasonCode, setReasonCode] = useState('AC04');
  const done = () => setMode('none');
  const cancel = useMutation(trpc.payments.cancelPayment.mutationOptions({ onSuccess: done }));
  const reject = useMutation(trpc.simulations.simulatePaymentRejection.mutationOptions({ onSuccess: done }));
  const giveBack = useMutation(trpc.simulations.simulatePaymentReturn.mutationOptions({ onSuccess: done }));
  const busy = cancel.isPending || reject.isPending || giveBack.isPending;
  const error = cancel.error ?? reject.error ?? giveBack.error;
  const can = actionsOf(payment);
  if (!can.cancel && !can.reject && !can.return && !error) return null;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const input = { id: payment.id, reasonCode };
    if (mode === 'reject') reject.mutate(input);
    if (mode === 'return') giveBack.mutate(input);
  };
  return (
    <div className="stack">
      <div className="row">
        {can.cancel && (
          <ConfirmButton
            label="Cancel payment"
            question="Cancel this payment before its clearing session? Its hold is released; this cannot be undone."
            disabled={busy}
            onConfirm={() => cancel.mutate({ id: payment.id })}
          />
        )}
        {can.reject && (
          <button
            type="button"
            className="secondary small"
            disabled={busy}
            aria-expanded={mode === 'reject'}
            onClick={() => setMode(mode === 'reject' ? 'none' : 'reject')}
          >
            Simulate rejection…
          </button>
        )}
        {can.return && (
          <button
            type="button"
            className="secondary small"
            disabled={busy}
            aria-expanded={mode === 'return'}
            onClick={() => setMode(mode === 'return' ? 'none' : 'return')}
          >
            Simulate return…
          </button>
        )}
      </div>
      {mode !== 'none' && (
        <form className="row" onSubmit={submit} aria-label={mode === 'reject' ? 'Reject the payment' : 'Return the payment'}>
          <label className="field">
            <span>ISO reason code</span>
            <select value={reasonCode} onChange={(e) => setReasonCode(e.target.value)}>
              {REASON_CODES.map(({ code, message }) => (
                <option key={code} value={code}>
                  {code} · {message}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" className="danger small" disabled={busy}>
            {mode === 'reject' ? 'Reject it' : 'Return it'}
          </button>
        </form>
      )}
      <ErrorNote error={error} />
    </div>
  );
}
