/**
 * The world's Enable Banking applications (docs/faces/enablebanking.md): per application, newest first,
 * the sessions it made (status on the world's clock, the accounts each reads, until when) with a revoke
 * action, and the payments it asked for (Enable Banking's status beside the section-19 payment each runs as).
 */
import { useQuery } from '@tanstack/react-query';
import { CopyButton } from '../components/copy-button.tsx';
import { ApplicationPayments, ApplicationSessions } from '../components/enablebanking-application.tsx';
import { ErrorNote } from '../components/error-note.tsx';
import { Loading, PageHeader, Pager } from '../components/ui.tsx';
import { formatDateTime } from '../lib/format.ts';
import { useTRPC } from '../lib/trpc.ts';
import { useUrlState } from '../lib/url-state.ts';

export function EnableBankingPage() {
  const trpc = useTRPC();
  const url = useUrlState(); // the page of applications is in the address (`?page=`)
  const page = url.page();
  const applications = useQuery(trpc.enablebanking.listApplications.queryOptions({ page, limit: 10 }));
  const list = applications.data?.data ?? [];
  return (
    <>
      <PageHeader
        title="Enable Banking"
        subtitle="What apps registered for the Enable Banking face do in your world: the sessions they read accounts through, and the payments they asked for. Times are world time."
      />
      <ErrorNote error={applications.error} />
      {applications.isPending ? (
        <Loading what="applications" />
      ) : list.length === 0 ? (
        <section className="card" aria-labelledby="eb-empty">
          <h2 id="eb-empty">Applications</h2>
          <div className="empty" data-testid="eb-empty">
            <p>No application is registered yet.</p>
            <p>
              Register one with <code>POST /v1/enablebanking/applications</code>: the app then signs its own RS256 JWTs (
              <code>kid</code> = the application’s id) and calls <code>/enablebanking</code> as it calls Enable Banking’s API. See{' '}
              <code>docs/faces/enablebanking.md</code>.
            </p>
          </div>
        </section>
      ) : (
        list.map((application) => (
          <section
            key={application.id}
            className="card"
            aria-labelledby={`eb-app-${application.id}`}
            data-testid="eb-application"
          >
            <h2 id={`eb-app-${application.id}`}>{application.name}</h2>
            <p className="muted">
              <span className="mono">{application.id}</span> <CopyButton text={application.id} label="Copy application id" />{' '}
              registered {formatDateTime(application.createdAt)}
            </p>
            <ApplicationSessions application={application} />
            <ApplicationPayments application={application} />
          </section>
        ))
      )}
      <Pager meta={applications.data?.meta} onPage={(next) => url.set({ page: next }, { push: true })} label="Applications" />
    </>
  );
}
