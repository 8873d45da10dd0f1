/**
 * Time and scenarios: the world's clock (advance a day, a week, a month, or to any instant, and see
 * what fired), a scenario (a shipped example or your own JSON) applied in one go, the world
 * exported as a scenario, and a reset.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import family from '../../../../examples/scenarios/family.json' with { type: 'json' };
import freelancer from '../../../../examples/scenarios/freelancer.json' with { type: 'json' };
import student from '../../../../examples/scenarios/student.json' with { type: 'json' };
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, PageHeader } from '../components/ui.tsx';
import { formatDateTime, localInputToIso } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';

const EXAMPLES: Record<string, unknown> = { family, student, freelancer };
const STEPS = [
  { by: 'P1D', label: 'a day' },
  { by: 'P7D', label: 'a week' },
  { by: 'P1M', label: 'a month' },
  { by: 'P1Y', label: 'a year' },
];
const DAY_MS = 86_400_000;

export function TimePage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const clock = useQuery(trpc.clock.getClock.queryOptions({}));
  // Each of these refetches the whole world: derived from the mutation (lib/query-client.ts).
  const advance = useMutation(trpc.clock.advanceClock.mutationOptions());
  const apply = useMutation(trpc.scenarios.applyScenario.mutationOptions());
  const reset = useMutation(trpc.sandbox.resetSandbox.mutationOptions());
  const [exported, setExported] = useState<string>();
  const exportWorld = useMutation({
    mutationFn: () => queryClient.fetchQuery(trpc.scenarios.exportScenario.queryOptions({}, { staleTime: 0 })),
    onSuccess: (result) => setExported(JSON.stringify(result.data, null, 2)),
  });
  const [to, setTo] = useState('');
  const [example, setExample] = useState('family');
  const [text, setText] = useState(() => JSON.stringify(EXAMPLES.family, null, 2));
  const [resetFirst, setResetFirst] = useState(false);
  const [jsonError, setJsonError] = useState<string>();
  const [confirm, setConfirm] = useState('');

  const advanceTo = (event: FormEvent) => {
    event.preventDefault();
    const iso = localInputToIso(to);
    if (iso) advance.mutate({ to: iso });
  };
  const applyScenario = (event: FormEvent) => {
    event.preventDefault();
    let scenario: unknown;
    try {
      scenario = JSON.parse(text);
    } catch (error) {
      setJsonError(`Not JSON: ${(error as Error).message}`);
      return;
    }
    setJsonError(undefined);
    apply.mutate({ scenario: scenario as never, reset: resetFirst });
  };
  const fired = advance.data?.data;
  const applied = apply.data?.data;
  const offsetDays = (clock.data?.data.offsetMs ?? 0) / DAY_MS;

  return (
    <>
      <PageHeader
        title="Time and scenarios"
        subtitle="Your sandbox has its own clock. Move it forward and everything due happens on the way: schedules run, pending card payments post."
      />
      <section className="card" aria-labelledby="clock">
        <h2 id="clock">Clock</h2>
        <ErrorNote error={clock.error ?? advance.error} />
        {clock.isPending ? (
          <Loading what="the clock" />
        ) : (
          <p>
            It is <strong data-testid="clock-now">{formatDateTime(clock.data?.data.now)}</strong> in your world
            {offsetDays >= 0.01 ? `, ${offsetDays.toFixed(1)} days ahead of real time.` : ', the same as real time.'}
          </p>
        )}
        <div className="row">
          {STEPS.map((step) => (
            <button key={step.by} type="button" disabled={advance.isPending} onClick={() => advance.mutate({ by: step.by })}>
              Advance {step.label}
            </button>
          ))}
        </div>
        <form className="row" onSubmit={advanceTo}>
          <label className="field">
            <span>Advance to</span>
            <input type="datetime-local" value={to} onChange={(e) => setTo(e.target.value)} />
          </label>
          <button type="submit" className="secondary" disabled={advance.isPending || !to}>
            Go
          </button>
        </form>
        {fired && (
          <div className="note success" role="status" data-testid="advance-result">
            {formatDateTime(fired.from)} → {formatDateTime(fired.now)}: {fired.fired.scheduled} scheduled runs,{' '}
            {fired.fired.settled} settled, {fired.fired.expired} expired ({fired.events} events)
          </div>
        )}
      </section>

      <section className="card" aria-labelledby="scenario">
        <h2 id="scenario">Apply a scenario</h2>
        <p className="muted">
          A whole world from a seed: accounts, months of realistic Polish history, schedules. The same scenario gives the same
          transactions every time.
        </p>
        <form className="stack" onSubmit={applyScenario}>
          <label className="field">
            <span>Start from an example</span>
            <select
              value={example}
              onChange={(e) => {
                setExample(e.target.value);
                setText(JSON.stringify(EXAMPLES[e.target.value], null, 2));
              }}
            >
              {Object.keys(EXAMPLES).map((name) => (
                <option key={name} value={name}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          <label className="field">
            <span>Scenario JSON</span>
            <textarea className="mono" rows={12} value={text} onChange={(e) => setText(e.target.value)} spellCheck={false} />
          </label>
          <label>
            <input type="checkbox" checked={resetFirst} onChange={(e) => setResetFirst(e.target.checked)} /> Reset my world first
          </label>
          <button type="submit" disabled={apply.isPending}>
            Apply scenario
          </button>
          {jsonError && (
            <p className="note error" role="alert">
              {jsonError}
            </p>
          )}
          <ErrorNote error={apply.error} />
          {applied && (
            <div className="note success" role="status" data-testid="apply-result">
              Applied: {applied.transactions} transactions, {applied.schedules} schedules
              {applied.scheduleRuns.booked + applied.scheduleRuns.failed > 0 &&
                ` (${applied.scheduleRuns.booked} past runs booked, ${applied.scheduleRuns.failed} failed)`}{' '}
              on {applied.accounts.map((account) => account.name).join(', ')}
            </div>
          )}
        </form>
      </section>

      <section className="card" aria-labelledby="export">
        <h2 id="export">Export your world</h2>
        <p className="muted">
          Your accounts, transactions and schedules as a scenario: apply it to another user to copy this world.
        </p>
        <div className="row">
          <button type="button" className="secondary" disabled={exportWorld.isPending} onClick={() => exportWorld.mutate()}>
            Export as scenario
          </button>
        </div>
        <ErrorNote error={exportWorld.error} />
        {exported && (
          <label className="field">
            <span>Exported scenario</span>
            <textarea className="mono" readOnly rows={12} value={exported} data-testid="export" />
          </label>
        )}
      </section>

      <section className="card" aria-labelledby="reset">
        <h2 id="reset">Reset</h2>
        <p className="muted">
          Removes your accounts, transactions, schedules and events and sets the clock back. Your sign-in, API keys and webhooks
          stay.
        </p>
        <form
          className="row"
          onSubmit={(event) => {
            event.preventDefault();
            reset.mutate({ confirm: 'RESET' });
          }}
        >
          <label className="field">
            <span>Type RESET to confirm</span>
            <input value={confirm} onChange={(e) => setConfirm(e.target.value)} autoComplete="off" />
          </label>
          <button type="submit" className="danger" disabled={confirm !== 'RESET' || reset.isPending}>
            Reset my world
          </button>
        </form>
        <ErrorNote error={reset.error} />
        {reset.data && (
          <div className="note success" role="status">
            Removed {reset.data.data.removed.accounts} accounts, {reset.data.data.removed.transactions} transactions,{' '}
            {reset.data.data.removed.schedules} schedules and {reset.data.data.removed.events} events.
          </div>
        )}
      </section>
    </>
  );
}
