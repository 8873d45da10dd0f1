/**
 * A payment's ISO 20022 status story (lib/payments.ts `stepsOf`): each step reached, with its world
 * time where the API keeps one, the reason of a rejection or a return, and the steps still ahead.
 */
import { formatDateTime } from '../lib/format.ts';
import { stepsOf } from '../lib/payments.ts';
import type { Payment } from '../lib/types.ts';

export function PaymentTimeline({ payment }: { payment: Payment }) {
  return (
    <section aria-labelledby="payment-timeline-title">
      <h3 id="payment-timeline-title">Status timeline</h3>
      <ol className="timeline payment-steps" aria-label="Status timeline" data-testid="payment-timeline">
        {stepsOf(payment).map((step) => (
          <li key={step.code} data-state={step.state} data-code={step.code}>
            <code className={step.state === 'done' ? 'badge ok' : 'badge'}>{step.code}</code> <strong>{step.label}</strong>
            {step.state === 'next' && <span className="muted"> · next</span>}
            {step.at && <span className="muted"> · {formatDateTime(step.at)} (world time)</span>}
            {step.reason && (
              <span className="step-reason" data-testid="step-reason">
                {' '}
                <code>{step.reason.code}</code> {step.reason.message}
              </span>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}
