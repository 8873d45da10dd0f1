/**
 * The bank's page around every consent (pages/consent-page.tsx, pages/payment-consent.tsx): its name and
 * colour, the steps, sign-in inside the page, and the "nothing to decide" state — no console around it.
 */
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useAuth } from '../lib/auth.tsx';
import { useTRPC } from '../lib/trpc.ts';
import { ErrorNote } from './error-note.tsx';

/** The bank's colour: one of a few tones (styles.css, `.bank[data-tone]`), the same for the same name. */
const TONES = ['teal', 'indigo', 'crimson', 'green', 'plum'] as const;
function toneOf(name: string): (typeof TONES)[number] {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) % 1_000_003;
  return TONES[hash % TONES.length] ?? 'teal';
}

export const hostOf = (url: string): string => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

export interface Bank {
  name: string;
  /** Through whom the app reads (the aggregator). */
  via: string;
}

/** The bank's frame around every state of the page: its name and colour, the steps, the content. */
export function BankFrame({
  bank,
  steps,
  current,
  children,
}: {
  bank: Bank;
  steps: string[];
  current: number;
  children: ReactNode;
}) {
  return (
    <div className="bank" data-tone={toneOf(bank.name)}>
      <header className="bank-bar">
        <span className="bank-mark" aria-hidden="true">
          {bank.name.slice(0, 1)}
        </span>
        <span className="bank-name">{bank.name}</span>
      </header>
      <main className="bank-main" id="main">
        {steps.length > 1 ? (
          <ol className="bank-steps" aria-label="Steps">
            {steps.map((step, index) => (
              <li
                key={step}
                className="bank-step"
                aria-current={index === current ? 'step' : undefined}
                data-done={index < current || undefined}
              >
                {step}
              </li>
            ))}
          </ol>
        ) : null}
        {children}
        <p className="bank-foot">Secure connection through {bank.via}. A Sandbank sandbox bank: no real money moves.</p>
      </main>
    </div>
  );
}

/** Sign-in inside the bank's page: the console's own sign-in call, returning to this page. */
export function BankSignIn() {
  const trpc = useTRPC();
  const { signIn } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const login = useMutation(trpc.auth.login.mutationOptions({ onSuccess: ({ data }) => signIn(data) }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    login.mutate({ email, password });
  };
  return (
    <section className="bank-card" aria-labelledby="bank-sign-in">
      <h1 id="bank-sign-in">Sign in to your bank</h1>
      <p className="muted">An app asks to connect to your accounts. Sign in to see what it asks for.</p>
      <form className="stack" onSubmit={submit}>
        <label className="field">
          <span>E-mail</span>
          <input type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        </label>
        <label className="field">
          <span>Password</span>
          <input
            type="password"
            autoComplete="current-password"
            required
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </label>
        <ErrorNote error={login.error} />
        <button type="submit" disabled={login.isPending}>
          Sign in
        </button>
      </form>
    </section>
  );
}

export function Decided({ what }: { what: string }) {
  return (
    <section className="bank-card" aria-labelledby="consent-decided">
      <h1 id="consent-decided">Nothing to decide</h1>
      <p className="empty">{what}</p>
    </section>
  );
}
