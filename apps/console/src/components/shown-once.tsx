/** A value shown only this once (a new API key, a setup token, a webhook's signing secret): on screen, with a copy button. */
import type { ReactNode } from 'react';
import { CopyButton } from './copy-button.tsx';

interface Props {
  /** What to do with it, e.g. “Copy the key now: it is shown only once.” */
  title: ReactNode;
  value: string;
  copyLabel: string;
  testId: string;
  children?: ReactNode;
}

export function ShownOnce({ title, value, copyLabel, testId, children }: Props) {
  return (
    <div className="note success" role="status">
      <strong>{title}</strong>
      <div className="secret" data-testid={testId}>
        {value}
      </div>
      <div>
        <CopyButton text={value} label={copyLabel} />
      </div>
      {children}
    </div>
  );
}
