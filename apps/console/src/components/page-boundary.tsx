/**
 * Error boundaries (react-error-boundary): a page that throws while rendering (a bug, or an answer
 * of a shape it did not expect) shows what failed and a way back, instead of unmounting the whole
 * console to a blank screen. The navigation stays usable: leaving the page resets its boundary,
 * and Try again renders the page afresh from new answers: the cache is reset (an answer the page
 * could not show may be cached as a success) and failed queries may throw again
 * (TanStack Query's QueryErrorResetBoundary).
 */
import { QueryErrorResetBoundary, useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useEffect, useRef } from 'react';
import { ErrorBoundary, type FallbackProps } from 'react-error-boundary';
import { useLocation } from 'wouter';
import { toProblem } from '../lib/errors.ts';
import { CopyButton } from './copy-button.tsx';

function Failure({ error, resetErrorBoundary, title, action }: FallbackProps & { title: string; action: string }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // Focus moves to what replaced the page, so a screen reader hears it at once.
  useEffect(() => heading.current?.focus(), []);
  const problem = toProblem(error);
  return (
    <section className="card failure" role="alert" aria-labelledby="failure-title">
      <h1 id="failure-title" ref={heading} tabIndex={-1}>
        {title}
      </h1>
      <p>
        <span className="badge danger">{problem.code}</span> {error instanceof Error ? error.message : problem.message}
      </p>
      {problem.traceId && (
        <p className="trace">
          traceId <code>{problem.traceId}</code> <CopyButton text={problem.traceId} label="Copy traceId" />
        </p>
      )}
      <button type="button" onClick={resetErrorBoundary}>
        {action}
      </button>
    </section>
  );
}

function report(error: unknown): void {
  // The browser's console is where a developer looks first; nothing is sent anywhere.
  console.error('Sandbank console: a page failed to render', error);
}

/** Around each page, inside the frame: the navigation keeps working when a page fails. */
export function PageBoundary({ children }: { children: ReactNode }) {
  const [location] = useLocation();
  const queryClient = useQueryClient();
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <ErrorBoundary
          resetKeys={[location]}
          onReset={() => {
            reset();
            void queryClient.resetQueries();
          }}
          onError={report}
          fallbackRender={(props) => <Failure {...props} title="This page could not be shown" action="Try again" />}
        >
          {children}
        </ErrorBoundary>
      )}
    </QueryErrorResetBoundary>
  );
}

/** Around the whole console: the last resort when the frame itself fails. */
export function AppBoundary({ children }: { children: ReactNode }) {
  return (
    <ErrorBoundary
      onError={report}
      fallbackRender={(props) => (
        <main className="auth">
          <Failure {...props} resetErrorBoundary={() => window.location.reload()} title="The console stopped" action="Reload" />
        </main>
      )}
    >
      {children}
    </ErrorBoundary>
  );
}
