/**
 * Copies a value (a traceId, a new API key) and says so for a moment. `name`, when given, is the
 * accessible name (it starts with the visible `label`): a short button in a narrow cell can still say
 * whose id it copies.
 */
import { useState } from 'react';

export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
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
    <button type="button" className="secondary small" onClick={copy} aria-live="polite" aria-label={copied ? undefined : name}>
      {copied ? 'Copied' : label}
    </button>
  );
}
