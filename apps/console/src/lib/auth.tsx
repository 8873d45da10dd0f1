/**
 * The signed-in session. The access token lives only in this module's memory; the refresh token
 * lives in an `HttpOnly` cookie that only `/console/session` receives (the API's
 * console-session.ts), so JavaScript never holds a live one and a reload restores the session:
 * on start the console asks `/console/session/refresh` for an access token, then `auth.me` for
 * the user. `@sandbank/client`'s session sends the access token and refreshes once on a 401
 * through the same cookie; when the refresh is refused it drops the tokens and we show sign-in.
 * A refresh that cannot reach the server (offline) keeps the session.
 *
 * The QueryClient is made outside this provider (main.tsx) and handed in: signing in or out
 * clears its cache, but the client itself outlives sessions.
 */
import { createSession, createTrpcClient, type SandbankTrpcClient, type Session, type Tokens } from '@sandbank/client/browser';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useEffect, useState } from 'react';
import { TRPCProvider } from './trpc.ts';

interface SignedInUser {
  id: string;
  email: string;
}

/** `restoring`: asking the cookie for a session on start; `unreachable`: the server could not be reached to ask. */
export type AuthStatus = 'restoring' | 'unreachable' | 'signed-in' | 'signed-out';

interface Auth {
  status: AuthStatus;
  user: SignedInUser | undefined;
  signIn(result: Tokens & { user: SignedInUser }): Promise<void>;
  signOut(): Promise<void>;
  /** Tries to restore the session again (after `unreachable`). */
  restore(): void;
  /** A fetch with the session's access token (refreshed on a 401), for what tRPC does not carry: files, the event stream. */
  fetch: typeof fetch;
}

const AuthContext = createContext<Auth | undefined>(undefined);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

const SESSION_PATH = '/console/session';
/** The CSRF header the session route requires (a cross-site form cannot send it). */
const CSRF_HEADERS = { 'x-sandbank-console': '1', 'content-type': 'application/json' };

interface AccessAnswer {
  /** `null`: no session (no refresh cookie). */
  data: { accessToken: string } | null;
}

/**
 * One call to the session route. Refreshes from several tabs share one cookie, and a refresh
 * token works once: a Web Lock makes them take turns, so two tabs never present the same token.
 */
async function sessionCall(path: string, body?: object): Promise<Response> {
  const call = () =>
    fetch(`${SESSION_PATH}${path}`, {
      method: 'POST',
      headers: CSRF_HEADERS,
      credentials: 'same-origin',
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
  const locks = typeof navigator !== 'undefined' ? navigator.locks : undefined;
  return locks ? locks.request('sandbank-console-session', call) : call();
}

/** Tokens of an access answer: the refresh token stays in the cookie, so it is empty here. */
async function accessTokens(response: Response): Promise<Tokens | undefined> {
  // Read every body, refusals too: an unread one keeps the request open in Chromium.
  const body = (await response.json().catch(() => undefined)) as AccessAnswer | undefined;
  if (response.status === 401 || response.status === 403) return undefined;
  if (!response.ok || !body) throw new Error(`The session refresh answered ${response.status}`);
  const { data } = body;
  // No refresh cookie: signed out (the route answers that as data, not as a 401).
  if (data === null) return undefined;
  return { accessToken: data.accessToken, refreshToken: '' };
}

export function AuthProvider({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  const [user, setUser] = useState<SignedInUser | undefined>();
  const [status, setStatus] = useState<AuthStatus>('restoring');
  const [attempt, setAttempt] = useState(0);
  const [{ session, trpcClient }] = useState<{ session: Session; trpcClient: SandbankTrpcClient }>(() => {
    const session = createSession({
      baseUrl: window.location.origin,
      refresh: async () => accessTokens(await sessionCall('/refresh')),
      onTokens: (tokens) => {
        if (!tokens) {
          setUser(undefined);
          setStatus('signed-out');
          queryClient.clear();
        }
      },
    });
    return { session, trpcClient: createTrpcClient(session) };
  });

  // On start (and on "try again"): the cookie's session, if there is one. `session.refresh()`
  // shares one refresh between callers, so StrictMode's second effect run does not spend a second token.
  useEffect(() => {
    if (attempt < 0) return;
    let live = true;
    session
      .refresh()
      .then(async (restored) => {
        if (!restored) return;
        const { data } = await trpcClient.auth.me.query();
        if (live) {
          setUser({ id: data.id, email: data.email });
          setStatus('signed-in');
        }
      })
      .catch(() => {
        if (live) setStatus('unreachable');
      });
    return () => {
      live = false;
    };
  }, [session, trpcClient, attempt]);

  const auth: Auth = {
    status,
    user,
    fetch: session.fetch,
    async signIn(result) {
      // The page saw this refresh token; it is spent at once and its successor goes into the cookie.
      const tokens = await accessTokens(await sessionCall('', { refreshToken: result.refreshToken }));
      if (!tokens) throw new Error('The new session could not be kept');
      queryClient.clear();
      session.setTokens(tokens);
      setUser({ id: result.user.id, email: result.user.email });
      setStatus('signed-in');
    },
    async signOut() {
      try {
        await (await sessionCall('/logout')).body?.cancel();
      } finally {
        session.setTokens(undefined);
      }
    },
    restore() {
      setStatus('restoring');
      setAttempt((n) => n + 1);
    },
  };

  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        <AuthContext.Provider value={auth}>{children}</AuthContext.Provider>
      </TRPCProvider>
    </QueryClientProvider>
  );
}
