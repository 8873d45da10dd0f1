/**
 * A webhook's deliveries with every attempt: what was sent (the request as Sandbank records it:
 * URL, headers with the signatures, body) and what came back (status, content-type and
 * content-length, the first 2 KB of the body), each attempt's exchange behind its own <details>.
 * Past the server's retention (WEBHOOK_ATTEMPT_RETENTION_HOURS) the exchange is gone and the
 * attempt says so; its status, duration and error stay.
 * A delivery that failed, or whose last attempt failed and waits for a retry, says so in words
 * and in the danger colour.
 */

import { formatDateTime } from '../lib/format.ts';
import type { Delivery, DeliveryAttempt } from '../lib/types.ts';
import { CopyButton } from './copy-button.tsx';
import { TableHead } from './list-section.tsx';
import { BreakableAddress, StatusBadge } from './ui.tsx';

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
              <td data-label="Event">
                <code>{delivery.eventType}</code>
                <br />
                <small className="muted">{formatDateTime(delivery.createdAt)} (real time)</small>
              </td>
              <td data-label="Status">
                <StatusBadge status={state} />
                {delivery.nextAttemptAt && (
                  <small className="muted"> next try {formatDateTime(delivery.nextAttemptAt)} (real time)</small>
                )}
                {failing && last?.error && <small className="failing-reason"> {last.error}</small>}
              </td>
              <td data-label="Response" className="num" data-testid="status-code">
                {delivery.lastStatusCode ?? '—'}
              </td>
              <td data-label="Duration" className="num">
                {last ? `${last.durationMs} ms` : '—'}
              </td>
              <td data-label="Attempts" className="wide">
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

/** One attempt: a summary of its request and response, and the exchange as recorded behind a <details>. */
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
          <code>
            POST <BreakableAddress text={url} />
          </code>
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
      <details className="attempt-exchange">
        <summary>
          Request and response of attempt {attempt.attempt}
          {attempt.exchangeRemovedAt && <span className="muted"> (no longer kept)</span>}
        </summary>
        {attempt.exchangeRemovedAt ? (
          <p className="note" data-testid="exchange-removed">
            {/* One span: a note lays its children out as a column, and this is one sentence. */}
            <span>
              No longer kept: the request and response of an attempt are kept for a limited time (7 days unless the server sets{' '}
              <code>WEBHOOK_ATTEMPT_RETENTION_HOURS</code>); this attempt's were removed{' '}
              {formatDateTime(attempt.exchangeRemovedAt)} (real time). Its status, duration and error above stay.
            </span>
          </p>
        ) : (
          <AttemptExchange attempt={attempt} />
        )}
      </details>
    </li>
  );
}

/** The request as sent and the receiver's answer, as the worker recorded them. */
function AttemptExchange({ attempt }: { attempt: DeliveryAttempt }) {
  const { request, response } = attempt;
  return (
    <div className="exchange">
      <div data-testid="attempt-request">
        <h3>Request</h3>
        {request ? (
          <>
            <p>
              <code>
                {request.method} {request.url}
              </code>
            </p>
            <pre className="exchange-block">{headerLines(request.httpHeaders)}</pre>
            <div className="exchange-body-head">
              <span className="muted">Body{isJson(request.body) ? ' (JSON, pretty-printed; copy gives it as sent)' : ''}</span>
              <CopyButton text={request.body} label="Copy request body" />
            </div>
            <pre className="exchange-block" data-testid="request-body">
              {pretty(request.body)}
            </pre>
          </>
        ) : (
          <p className="muted">Not recorded: this attempt was made before requests were kept.</p>
        )}
      </div>
      <div data-testid="attempt-response-detail">
        <h3>Response</h3>
        {response ? (
          <>
            <p>
              <code>HTTP {response.statusCode}</code>
              {response.statusCode !== attempt.statusCode && (
                <span className="muted">
                  {' '}
                  (the receiver's answer; the attempt counted as {attempt.statusCode ?? 'no answer'})
                </span>
              )}
            </p>
            {Object.keys(response.httpHeaders).length > 0 && (
              <pre className="exchange-block">{headerLines(response.httpHeaders)}</pre>
            )}
            <div className="exchange-body-head">
              <span className="muted">
                {response.body === '' ? 'Empty body' : response.bodyTruncated ? 'Body, first 2 KB' : 'Body'}
              </span>
              {response.body !== '' && <CopyButton text={response.body} label="Copy response body" />}
            </div>
            {response.body !== '' && (
              <pre className="exchange-block" data-testid="response-body">
                {response.bodyTruncated ? response.body : pretty(response.body)}
              </pre>
            )}
            {response.bodyTruncated && (
              <p className="note" data-testid="response-truncated">
                Truncated: the answer was longer than 2 KB; only its start is kept.
              </p>
            )}
          </>
        ) : (
          <p className="muted">No answer{attempt.error ? ` (${attempt.error})` : ''}.</p>
        )}
      </div>
    </div>
  );
}

const headerLines = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([name, value]) => `${name}: ${value}`)
    .join('\n');

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** JSON indented for reading; anything else as it is. */
function pretty(text: string): string {
  try {
    return JSON.stringify(JSON.parse(text), null, 2);
  } catch {
    return text;
  }
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
