/** Copies a value (a traceId, a new API key) and says so for a moment. */
import { useState } from 'react';

export function CopyButton({ text, label = 'Copy' }: { text: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      setTimeout(() => setCopied(false), 1500);
    } catch {
      // No clipboard permission (e.g. plain http on another host): the value is on screen to select.
      setCopied(false);
    }
  };
  return (
    <button type="button" className="secondary small" onClick={copy} aria-live="polite">
      {copied ? 'Copied' : label}
    </button>
  );
}
