/**
 * An account's schedules: each one's rule, next run, state and runs (with why a run failed), with
 * pause, resume and delete; and a form for a new one from a few common rhythms or any RFC 5545 rule.
 */

import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { exampleAmount, formatDateTime, localInputToIso, parseAmount } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { ConfirmButton } from './confirm-button.tsx';
import { ErrorNote } from './error-note.tsx';
import { Loading, Money, StatusBadge } from './ui.tsx';

const RHYTHMS = [
  { label: 'Monthly on the 10th', rrule: 'FREQ=MONTHLY;BYMONTHDAY=10' },
  { label: 'Monthly on the 1st', rrule: 'FREQ=MONTHLY;BYMONTHDAY=1' },
  { label: 'Last day of the month', rrule: 'FREQ=MONTHLY;BYMONTHDAY=-1' },
  { label: 'Every Friday', rrule: 'FREQ=WEEKLY;BYDAY=FR' },
  { label: 'Every day', rrule: 'FREQ=DAILY' },
];

function Runs({ scheduleId }: { scheduleId: string }) {
  const trpc = useTRPC();
  const runs = useQuery(trpc.schedules.listScheduleRuns.queryOptions({ id: scheduleId, limit: 24 }));
  if (runs.isPending) return <Loading what="runs" />;
  const list = runs.data?.data ?? [];
  if (list.length === 0) return <p className="empty">No runs yet: they come as your clock passes each date.</p>;
  return (
    <ul className="attempts" aria-label="Runs">
      {list.map((run) => (
        <li key={run.n}>
          #{run.n} {formatDateTime(run.dueAt)}{' '}
          {run.failure ? <StatusBadge status={`failed: ${run.failure.code}`} /> : <StatusBadge status="booked" />}
        </li>
      ))}
    </ul>
  );
}

export function SchedulesPanel({ accountId, currency, open }: { accountId: string; currency: string; open: boolean }) {
  const trpc = useTRPC();
  const schedules = useQuery(trpc.schedules.listAccountSchedules.queryOptions({ id: accountId }));
  // What each change refetches is derived from the mutation (lib/query-client.ts).
  const create = useMutation(trpc.schedules.createSchedule.mutationOptions());
  const pause = useMutation(trpc.schedules.pauseSchedule.mutationOptions());
  const resume = useMutation(trpc.schedules.resumeSchedule.mutationOptions());
  const remove = useMutation(trpc.schedules.deleteSchedule.mutationOptions());
  const [direction, setDirection] = useState<'in' | 'out'>('in');
  const [amountText, setAmountText] = useState('');
  const [description, setDescription] = useState('');
  const [rrule, setRrule] = useState(RHYTHMS[0]?.rrule ?? '');
  const [startAt, setStartAt] = useState('');
  const [amountError, setAmountError] = useState<string>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const minor = parseAmount(amountText, currency);
    if (minor === undefined || minor <= 0) {
      setAmountError(`Enter a positive amount in ${currency}, e.g. 3200 or ${exampleAmount(currency)}`);
      return;
    }
    setAmountError(undefined);
    const start = localInputToIso(startAt);
    create.mutate({
      id: accountId,
      amount: direction === 'in' ? minor : -minor,
      description,
      rrule,
      ...(start ? { startAt: start } : {}),
    });
  };

  const list = schedules.data?.data ?? [];
  return (
    <section className="card" aria-labelledby="schedules">
      <h2 id="schedules">Schedules</h2>
      <ErrorNote error={schedules.error ?? pause.error ?? resume.error ?? remove.error} />
      {schedules.isPending ? (
        <Loading what="schedules" />
      ) : list.length === 0 ? (
        <p className="empty">No schedules. Salary on the 10th, rent on the 1st: add them below, then advance your clock.</p>
      ) : (
        <ul className="events" aria-label="Schedules">
          {list.map((schedule) => (
            <li key={schedule.id}>
              <div>
                <strong>{schedule.description}</strong> <Money amount={schedule.amount} currency={currency} signed />{' '}
                <StatusBadge status={schedule.state} />
              </div>
              <div className="muted mono">{schedule.rrule}</div>
              <div className="muted">
                next {formatDateTime(schedule.nextRunAt)} · {schedule.runs} runs · {schedule.timezone}
              </div>
              <div className="row">
                {schedule.state === 'active' && (
                  <button type="button" className="secondary small" onClick={() => pause.mutate({ id: schedule.id })}>
                    Pause
                  </button>
                )}
                {schedule.state === 'paused' && (
                  <button type="button" className="secondary small" onClick={() => resume.mutate({ id: schedule.id })}>
                    Resume
                  </button>
                )}
                <ConfirmButton
                  label="Delete"
                  question="Delete this schedule? Its future runs will not happen; this cannot be undone."
                  onConfirm={() => remove.mutate({ id: schedule.id })}
                />
              </div>
              <details>
                <summary>Runs</summary>
                <Runs scheduleId={schedule.id} />
              </details>
            </li>
          ))}
        </ul>
      )}
      {open && (
        <form className="stack" onSubmit={submit} aria-label="New schedule">
          <fieldset className="choices">
            <legend>Direction</legend>
            <label>
              <input type="radio" name="schedule-direction" checked={direction === 'in'} onChange={() => setDirection('in')} />{' '}
              Money in
            </label>
            <label>
              <input type="radio" name="schedule-direction" checked={direction === 'out'} onChange={() => setDirection('out')} />{' '}
              Money out
            </label>
          </fieldset>
          <label className="field">
            <span>Amount each time ({currency})</span>
            <input
              required
              inputMode="decimal"
              value={amountText}
              onChange={(e) => setAmountText(e.target.value)}
              aria-invalid={amountError ? true : undefined}
            />
          </label>
          {amountError && (
            <p className="note error" role="alert">
              {amountError}
            </p>
          )}
          <label className="field">
            <span>What it is</span>
            <input
              required
              maxLength={500}
              value={description}
              onChange={(e) => setDescription(e.target.value)}
              placeholder="Salary"
            />
          </label>
          <label className="field">
            <span>Rhythm</span>
            <select
              value={RHYTHMS.some((rhythm) => rhythm.rrule === rrule) ? rrule : ''}
              onChange={(e) => e.target.value && setRrule(e.target.value)}
            >
              {RHYTHMS.map((rhythm) => (
                <option key={rhythm.rrule} value={rhythm.rrule}>
                  {rhythm.label}
                </option>
              ))}
              <option value="">Custom rule…</option>
            </select>
          </label>
          <label className="field">
            <span>RFC 5545 rule</span>
            <input required maxLength={500} className="mono" value={rrule} onChange={(e) => setRrule(e.target.value)} />
          </label>
          <label className="field">
            <span>Starts (optional; sets the time of day)</span>
            <input type="datetime-local" value={startAt} onChange={(e) => setStartAt(e.target.value)} />
          </label>
          <button type="submit" disabled={create.isPending}>
            Add schedule
          </button>
          <ErrorNote error={create.error} />
        </form>
      )}
    </section>
  );
}
