/** Closing asks for the account's name and the password again, as the API does. */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTRPC } from '../lib/trpc.ts';
import { ErrorNote } from './error-note.tsx';

export function CloseAccountForm({ account }: { account: { id: string; name: string } }) {
  const trpc = useTRPC();
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const close = useMutation(trpc.accounts.closeAccount.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    close.mutate({ id: account.id, name, password });
  };
  return (
    <details className="card">
      <summary>Close this account</summary>
      <form className="stack" onSubmit={submit}>
        <p className="muted">Only an account with a zero balance closes. Its history stays readable.</p>
        <label className="field">
          <span>Type the name “{account.name}”</span>
          <input required value={name} onChange={(e) => setName(e.target.value)} />
        </label>
        <label className="field">
          <span>Your password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorNote error={close.error} />
        <button type="submit" className="danger" disabled={close.isPending}>
          Close account
        </button>
      </form>
    </details>
  );
}
