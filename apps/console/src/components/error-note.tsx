/** An error from the contract: its message, its code, each field's problem and a copyable traceId. */
import { toProblem } from '../lib/errors.ts';
import { CopyButton } from './copy-button.tsx';

export function ErrorNote({ error }: { error: unknown }) {
  if (!error) return null;
  const problem = toProblem(error);
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
