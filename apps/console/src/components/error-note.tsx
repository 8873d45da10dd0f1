/** An error from the contract: its message, its code, each field's problem and a copyable traceId. */
import { useQueryClient } from '@tanstack/react-query';
import { toProblem } from '../lib/errors.ts';
import { CopyButton } from './copy-button.tsx';

/**
 * `retry`: what Retry does; by default (for a NETWORK error) every query that failed is asked
 * again. A failed action is never repeated by itself: the user sends it again.
 */
export function ErrorNote({ error, retry }: { error: unknown; retry?: () => void }) {
  const queryClient = useQueryClient();
  if (!error) return null;
  const problem = toProblem(error);
  const again =
    retry ??
    (problem.code === 'NETWORK'
      ? () => void queryClient.refetchQueries({ predicate: (query) => query.state.status === 'error' })
      : undefined);
  return (
    <div className="note error" role="alert">
      <strong>{problem.message}</strong>
      {problem.details.length > 0 && (
        <ul>
          {problem.details.map((detail) => (
            <li key={`${detail.path}:${detail.message}`}>
              <code>{detail.path || '(body)'}</code>: {detail.message}
            </li>
          ))}
        </ul>
      )}
      <div className="trace">
        <span className="badge danger">{problem.code}</span>
        {again && (
          <button type="button" className="secondary small" onClick={again}>
            Retry
          </button>
        )}
        {problem.traceId && (
          <>
            <span>
              traceId <code data-testid="trace-id">{problem.traceId}</code>
            </span>
            <CopyButton text={problem.traceId} label="Copy traceId" />
          </>
        )}
      </div>
    </div>
  );
}
