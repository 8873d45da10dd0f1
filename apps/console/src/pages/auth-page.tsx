/** Sign in or register; both answer a session (tokens + user) that goes into memory. */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'wouter';
import { ErrorNote } from '../components/error-note.tsx';
import { useAuth } from '../lib/auth.tsx';
import { useTRPC } from '../lib/trpc.ts';

export function AuthPage({ mode }: { mode: 'login' | 'register' }) {
  const trpc = useTRPC();
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation(trpc.auth.login.mutationOptions({ onSuccess: ({ data }) => signIn(data) }));
  const register = useMutation(trpc.auth.register.mutationOptions({ onSuccess: ({ data }) => signIn(data) }));
  const action = mode === 'login' ? login : register;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    action.mutate({ email, password });
  };

  return (
    <main className="auth">
      <section className="card" aria-labelledby="auth-title">
        <div className="brand">
          <img src="/console/favicon.svg" alt="" />
          Sandbank console
        </div>
        <h1 id="auth-title">{mode === 'login' ? 'Sign in' : 'Create your sandbox'}</h1>
        <nav className="tabs" aria-label="Sign in or register">
          <Link href="/login" aria-current={mode === 'login' ? 'page' : undefined}>
            Sign in
          </Link>
          <Link href="/register" aria-current={mode === 'register' ? 'page' : undefined}>
            Register
          </Link>
        </nav>
        <form className="stack" onSubmit={submit}>
          <label className="field">
            <span>E-mail</span>
            <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          </label>
          <label className="field">
            <span>Password</span>
            <input
              type="password"
              autoComplete={mode === 'login' ? 'current-password' : 'new-password'}
              required
              minLength={mode === 'register' ? 8 : 1}
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            {mode === 'register' && <small>At least 8 characters.</small>}
          </label>
          <ErrorNote error={action.error} />
          <button type="submit" disabled={action.isPending}>
            {mode === 'login' ? 'Sign in' : 'Register'}
          </button>
        </form>
        <p className="muted">You stay signed in across reloads until you sign out.</p>
      </section>
    </main>
  );
}
