/**
 * An account's booked balance at the end of each world day (`accounts.getBalanceHistory`: computed
 * by the server, exact, pending holds left out), drawn by recharts (docs/reference/libraries.md).
 * The chart is an SVG with its own title and description (balance-plot.tsx, loaded on demand); the
 * same numbers are in words (lowest, highest, now) and in a table of every day, so nothing is only
 * in the picture.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useMemo, useState } from 'react';
import { ErrorBoundary } from 'react-error-boundary';
import { formatDay } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';
import { ErrorNote } from './error-note.tsx';
import { Loading, Money } from './ui.tsx';

/** recharts is most of the chart's weight: its own chunk, fetched when an account page first shows a chart. */
const loadPlot = () => import('./balance-plot.tsx');
const CHART_TITLE = 'Balance at the end of each day';
/** The ranges offered (`?range=` in the address; 90 days, the API's default, leaves it out). */
const RANGES = [
  { days: 30, label: 'Last 30 days' },
  { days: 90, label: 'Last 90 days' },
  { days: 365, label: 'Last year' },
] as const;
const DEFAULT_RANGE = 90;

interface Point {
  date: string;
  balance: number;
}

/** The lowest and highest points (the first day each was reached) and the last. */
function summaryOf(points: Point[]) {
  const [first] = points;
  if (!first) return undefined;
  let low = first;
  let high = first;
  for (const point of points) {
    if (point.balance < low.balance) low = point;
    if (point.balance > high.balance) high = point;
  }
  return { low, high, last: points.at(-1) ?? first };
}

export function BalanceChart({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const url = useUrlState();
  // A failed import stays failed inside one lazy(): a retry makes a new one.
  const [attempt, setAttempt] = useState(0);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` is the point: a new lazy component per retry
  const BalancePlot = useMemo(() => lazy(loadPlot), [attempt]);
  const days = RANGES.find((range) => String(range.days) === url.get('range'))?.days ?? DEFAULT_RANGE;
  const query = useQuery({
    // `days` counts back from the world's today on the server: the console never guesses the world's date.
    ...trpc.accounts.getBalanceHistory.queryOptions({ id: accountId, days }),
    placeholderData: keepPreviousData,
  });
  const history = query.data?.data;
  const summary = history && summaryOf(history.points);
  return (
    <section className="card balance-chart" aria-labelledby="balance-chart-title" data-testid="balance-chart">
      <header className="chart-header">
        <h2 id="balance-chart-title">Balance over time</h2>
        <label className="field">
          <span>Range</span>
          <select
            value={days}
            onChange={(event) =>
              url.set({ range: event.target.value === String(DEFAULT_RANGE) ? undefined : event.target.value })
            }
          >
            {RANGES.map((range) => (
              <option key={range.days} value={range.days}>
                {range.label}
              </option>
            ))}
          </select>
        </label>
      </header>
      <ErrorNote error={query.error} />
      {!history || !summary ? (
        !query.error && <Loading what="the balance history" />
      ) : (
        <>
          <p className="muted" data-testid="balance-chart-summary">
            {formatDay(history.from)} – {formatDay(history.to)} (world days, Europe/Warsaw), booked balance: lowest{' '}
            <Money amount={summary.low.balance} currency={history.currency} /> ({formatDay(summary.low.date)}), highest{' '}
            <Money amount={summary.high.balance} currency={history.currency} /> ({formatDay(summary.high.date)}), now{' '}
            <Money amount={summary.last.balance} currency={history.currency} />. Pending holds are not included.
          </p>
          <figure className="chart-frame">
            {/* The chunk may fail to arrive (offline): the chart says so, the rest of the page stays. */}
            <ErrorBoundary
              resetKeys={[attempt]}
              fallbackRender={() => (
                <p className="note" role="status">
                  The chart could not be loaded (NETWORK); the numbers are in the table below.{' '}
                  <button type="button" className="secondary small" onClick={() => setAttempt((n) => n + 1)}>
                    Retry
                  </button>
                </p>
              )}
            >
              <Suspense fallback={<Loading what="the chart" />}>
                <BalancePlot
                  points={history.points}
                  currency={history.currency}
                  title={CHART_TITLE}
                  desc={`Line chart of the booked balance from ${formatDay(history.from)} to ${formatDay(history.to)}; the table below has every day.`}
                />
              </Suspense>
            </ErrorBoundary>
            <figcaption className="visually-hidden">{CHART_TITLE}</figcaption>
          </figure>
          <details>
            <summary>Every day as a table</summary>
            {/* A region of its own that scrolls: focusable, so a keyboard can scroll it too. */}
            {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must take focus (WCAG 2.1.1) */}
            <section className="table-wrap chart-table" aria-label="Daily balances" tabIndex={0}>
              <table>
                <caption className="visually-hidden">Booked balance at the end of each day</caption>
                <thead>
                  <tr>
                    <th scope="col">Day</th>
                    <th scope="col" className="num">
                      Balance
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {history.points.map((point) => (
                    <tr key={point.date}>
                      <td>{formatDay(point.date)}</td>
                      <td className="num">
                        <Money amount={point.balance} currency={history.currency} />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </section>
          </details>
        </>
      )}
    </section>
  );
}
