/**
 * A webhook's deliveries with every attempt: what was sent (the request as Sandbank records it) and
 * what came back. A delivery that failed, or whose last attempt failed and waits for a retry,
 * says so in words and in the danger colour.
 */

import { formatDateTime } from '../lib/format.ts';
import type { Delivery, DeliveryAttempt } from '../lib/types.ts';
import { CopyButton } from './copy-button.tsx';
import { TableHead } from './list-section.tsx';
import { StatusBadge } from './ui.tsx';

const COLUMNS = ['Event', 'Status', { label: 'Response', num: true }, { label: 'Duration', num: true }, 'Attempts'] as const;

/** `failing`: still pending, but its last attempt failed (a retry is scheduled). */
function deliveryState(delivery: Delivery): Delivery['status'] | 'failing' {
  const last = delivery.attempts.at(-1);
  return delivery.status === 'pending' && last?.error ? 'failing' : delivery.status;
}

interface Props {
  deliveries: readonly Delivery[];
  url: string;
  redeliver: (deliveryId: string) => void;
  busy: boolean;
}

export function DeliveriesTable({ deliveries, url, redeliver, busy }: Props) {
  return (
    <table aria-label="Deliveries" className="deliveries">
      <TableHead columns={COLUMNS} actions />
      <tbody>
        {deliveries.map((delivery) => {
          const last = delivery.attempts.at(-1);
          const state = deliveryState(delivery);
          const failing = state === 'failed' || state === 'failing';
          return (
            <tr key={delivery.id} data-state={state} className={failing ? 'failing' : undefined}>
              <td>
                <code>{delivery.eventType}</code>
                <br />
                <small className="muted">{formatDateTime(delivery.createdAt)} (real time)</small>
              </td>
              <td>
                <StatusBadge status={state} />
                {delivery.nextAttemptAt && (
                  <small className="muted"> next try {formatDateTime(delivery.nextAttemptAt)} (real time)</small>
                )}
                {failing && last?.error && <small className="failing-reason"> {last.error}</small>}
              </td>
              <td className="num" data-testid="status-code">
                {delivery.lastStatusCode ?? '—'}
              </td>
              <td className="num">{last ? `${last.durationMs} ms` : '—'}</td>
              <td>
                <details className="attempts-details">
                  <summary>{delivery.attemptCount}</summary>
                  <ol className="attempts" aria-label={`Attempts of ${delivery.eventType}`}>
                    {delivery.attempts.map((attempt) => (
                      <Attempt key={attempt.attempt} attempt={attempt} delivery={delivery} url={url} />
                    ))}
                  </ol>
                </details>
              </td>
              <td className="actions">
                <button type="button" className="secondary small" disabled={busy} onClick={() => redeliver(delivery.id)}>
                  Redeliver
                </button>
              </td>
            </tr>
          );
        })}
      </tbody>
    </table>
  );
}

/** One attempt's request and response, as recorded (the signature and the receiver's body are not stored). */
function Attempt({ attempt, delivery, url }: { attempt: DeliveryAttempt; delivery: Delivery; url: string }) {
  const ok = attempt.error === null;
  return (
    <li className="attempt" data-testid="attempt">
      <strong>
        Attempt {attempt.attempt} · {formatDateTime(attempt.at)} (real time)
      </strong>
      <dl className="facts">
        <dt>Request</dt>
        <dd>
          <code>POST {url}</code>
          <br />
          <code>webhook-id: {delivery.eventId}</code> <CopyButton text={delivery.eventId} label="Copy webhook-id" />
          <br />
          <span className="muted">
            Body: the <code>{delivery.eventType}</code> event, signed (Standard Webhooks)
          </span>
          {attempt.faults.length > 0 && (
            <>
              <br />
              <span className="badge warn">faults</span> {attempt.faults.map(describeAttemptFault).join(', ')}
            </>
          )}
        </dd>
        <dt>Response</dt>
        <dd data-testid="attempt-response">
          <StatusBadge status={ok ? 'succeeded' : 'failed'} />{' '}
          {attempt.statusCode === null ? 'no answer' : `HTTP ${attempt.statusCode}`} in {attempt.durationMs} ms
          {attempt.error && <span className="failing-reason"> — {attempt.error}</span>}
          {attempt.nextAttemptAt && (
            <>
              <br />
              <span className="muted">next try {formatDateTime(attempt.nextAttemptAt)} (real time)</span>
            </>
          )}
        </dd>
      </dl>
    </li>
  );
}

function describeAttemptFault(fault: DeliveryAttempt['faults'][number]): string {
  switch (fault.kind) {
    case 'failure':
      return `failure counted as ${fault.status === 'timeout' ? 'a timeout' : `HTTP ${fault.status}`}`;
    case 'latency':
      return `latency ${fault.ms} ms`;
    case 'duplicate':
      return 'sent twice';
    case 'reorder':
      return `held back ${fault.ms} ms`;
    case 'staleTimestamp':
      return `timestamp ${fault.ageSeconds} s old`;
  }
}
