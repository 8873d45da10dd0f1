/**
 * A destructive action that asks first: the button opens a modal <dialog> (focus moves into it
 * and returns to the button; Escape cancels) naming what will happen; only its confirm button acts.
 */
import { type ReactNode, useId, useRef } from 'react';

interface Props {
  /** The button's text, also the confirm button's (e.g. "Void"). */
  label: string;
  /** What will happen, in a sentence. */
  question: ReactNode;
  onConfirm: () => void;
  disabled?: boolean;
  className?: string;
}

export function ConfirmButton({ label, question, onConfirm, disabled, className = 'danger small' }: Props) {
  const dialog = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  return (
    <>
      <button type="button" className={className} disabled={disabled} onClick={() => dialog.current?.showModal()}>
        {label}
      </button>
      <dialog ref={dialog} className="confirm" aria-labelledby={titleId}>
        <form method="dialog" className="stack">
          <p id={titleId}>{question}</p>
          <div className="row">
            <button type="submit" value="cancel" className="secondary small">
              Cancel
            </button>
            <button
              type="submit"
              value="confirm"
              className="danger small"
              onClick={() => {
                onConfirm();
              }}
            >
              {label}
            </button>
          </div>
        </form>
      </dialog>
    </>
  );
}
