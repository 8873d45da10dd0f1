/**
 * The next clearing sessions on the world's clock (`payments.getPaymentCalendar`, from the world's
 * today): Elixir's three a Polish business day and SEPA's one a TARGET day, each with its cut-off
 * (the last instant a payment joins it), when its payments go into clearing (ACSP) and settle (ACSC).
 * Sessions whose results are in already are left out; instant schemes have none.
 */
import { useQuery } from '@tanstack/react-query';
import { formatDateTime, formatDay } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { ErrorNote } from './error-note.tsx';
import { Loading } from './ui.tsx';

/** Sessions shown per scheme: enough to see the next business day's. */
const PER_SCHEME = 4;

export function ClearingCalendar() {
  const trpc = useTRPC();
  const calendar = useQuery(trpc.payments.getPaymentCalendar.queryOptions({}));
  const clock = useQuery(trpc.clock.getClock.queryOptions({}));
  const now = clock.data?.data.now;
  const upcoming = (scheme: 'elixir' | 'sepa') =>
    (calendar.data?.data ?? []).filter((s) => s.scheme === scheme && (!now || s.settlesAt > now)).slice(0, PER_SCHEME);
  const sessions = now ? [...upcoming('elixir'), ...upcoming('sepa')] : [];
  return (
    <section className="card" aria-labelledby="calendar-title">
      <h2 id="calendar-title">Clearing calendar</h2>
      <p className="muted">
        The next sessions on your world's clock: a payment accepted by a cut-off joins that session; advancing the clock fires
        them. Instant schemes (own accounts, Express Elixir, SEPA Instant) have none.
      </p>
      <ErrorNote error={calendar.error ?? clock.error} />
      {!calendar.data || !now ? (
        !calendar.error && !clock.error && <Loading what="the calendar" />
      ) : (
        <div className="table-wrap">
          <table aria-label="Clearing sessions" data-testid="calendar">
            <thead>
              <tr>
                <th scope="col">Scheme</th>
                <th scope="col">Business day</th>
                <th scope="col">Cut-off</th>
                <th scope="col">Session (ACSP)</th>
                <th scope="col">Settles (ACSC)</th>
              </tr>
            </thead>
            <tbody>
              {sessions.map((session) => (
                <tr key={`${session.scheme}:${session.sessionAt}`}>
                  <td data-label="Scheme">{session.scheme}</td>
                  <td data-label="Business day">{formatDay(session.day)}</td>
                  <td data-label="Cut-off">{formatDateTime(session.cutoffAt)}</td>
                  <td data-label="Session (ACSP)">{formatDateTime(session.sessionAt)}</td>
                  <td data-label="Settles (ACSC)">{formatDateTime(session.settlesAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
