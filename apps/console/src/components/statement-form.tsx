/**
 * "Download statement": the account's bank statement file (docs/faces/statements.md) in a format
 * and for a period, fetched with the session's token from `GET /v1/accounts/:id/statement` and
 * saved under the name the API gives it. Empty dates are the API's defaults: the month to date.
 */
import { type FormEvent, useId, useState } from 'react';
import { useAuth } from '../lib/auth.tsx';
import { RestError } from '../lib/errors.ts';
import { ErrorNote } from './error-note.tsx';

const FORMATS = [
  { value: 'format=camt.053', label: 'camt.053 — ISO 20022 statement' },
  { value: 'format=camt.052', label: 'camt.052 — report with pending entries' },
  { value: 'format=mt940', label: 'MT940 — UTF-8' },
  { value: 'format=mt940&encoding=cp852', label: 'MT940 — CP852, as Polish banks ship it' },
  { value: 'format=mt940&encoding=windows-1250', label: 'MT940 — Windows-1250' },
  { value: 'format=ofx', label: 'OFX 2.2' },
  { value: 'format=ofx1', label: 'OFX 1.02 (SGML)' },
  { value: 'format=csv', label: 'CSV' },
] as const;

/** The file name from `Content-Disposition: attachment; filename="…"`. */
const fileNameOf = (disposition: string | null) => /filename="([^"]+)"/.exec(disposition ?? '')?.[1] ?? 'statement';

export function StatementForm({ accountId }: { accountId: string }) {
  const auth = useAuth();
  const id = useId();
  const [format, setFormat] = useState<string>(FORMATS[0].value);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>();
  const [saved, setSaved] = useState<string | undefined>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    setSaved(undefined);
    try {
      const query = `${format}${from ? `&from=${from}` : ''}${to ? `&to=${to}` : ''}`;
      const response = await auth.fetch(`/v1/accounts/${encodeURIComponent(accountId)}/statement?${query}`);
      if (!response.ok) throw new RestError(await response.json().catch(() => ({ message: `HTTP ${response.status}` })));
      const name = fileNameOf(response.headers.get('content-disposition'));
      const url = URL.createObjectURL(await response.blob());
      const link = document.createElement('a');
      link.href = url;
      link.download = name;
      link.click();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      setSaved(name);
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };

  return (
    <details className="card">
      <summary>Download statement</summary>
      <form className="stack" aria-label="Download statement" onSubmit={submit}>
        <label className="field">
          <span>Format</span>
          <select value={format} onChange={(e) => setFormat(e.target.value)}>
            {FORMATS.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        </label>
        <label className="field">
          <span>From</span>
          <input type="date" value={from} onChange={(e) => setFrom(e.target.value)} aria-describedby={`${id}-period`} />
        </label>
        <label className="field">
          <span>To</span>
          <input type="date" value={to} onChange={(e) => setTo(e.target.value)} aria-describedby={`${id}-period`} />
        </label>
        <small id={`${id}-period`} className="muted">
          Whole days in Warsaw, at most 366. Empty: this month to today, in the account’s world.
        </small>
        <ErrorNote error={error} />
        {saved && (
          <p className="note" role="status" data-testid="statement-saved">
            Saved <code>{saved}</code>
          </p>
        )}
        <button type="submit" disabled={pending}>
          Download statement
        </button>
      </form>
    </details>
  );
}
