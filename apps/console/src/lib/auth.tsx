/**
 * The signed-in session. Tokens live only in this module's memory (never localStorage or
 * cookies): a reload signs the user out. `@sandbank/client`'s session sends the access token and
 * refreshes it once on a 401; when the refresh fails it drops the tokens and we show sign-in.
 * Signing out revokes the session on the server and clears every cached query.
 */
import { createSession, createTrpcClient, type SandbankTrpcClient, type Session, type Tokens } from '@sandbank/client/browser';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { TRPCProvider } from './trpc.ts';

interface SignedInUser {
  id: string;
  email: string;
}

interface Auth {
  user: SignedInUser | undefined;
  signIn(result: Tokens & { user: SignedInUser }): void;
  signOut(): Promise<void>;
  /** A fetch with the session's access token (refreshed on a 401), for what tRPC does not carry: files, the event stream. */
  fetch: typeof fetch;
}

const AuthContext = createContext<Auth | undefined>(undefined);

export function useAuth(): Auth {
  const auth = useContext(AuthContext);
  if (!auth) throw new Error('useAuth outside AuthProvider');
  return auth;
}

function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 2_000, retry: false, refetchOnWindowFocus: true },
      mutations: { retry: false },
    },
  });
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const [user, setUser] = useState<SignedInUser | undefined>();
  const [queryClient] = useState(createQueryClient);
  const [{ session, trpcClient }] = useState<{ session: Session; trpcClient: SandbankTrpcClient }>(() => {
    const session = createSession({
      baseUrl: window.location.origin,
      onTokens: (tokens) => {
        if (!tokens) {
          setUser(undefined);
          queryClient.clear();
        }
      },
    });
    return { session, trpcClient: createTrpcClient(session) };
  });

  const auth: Auth = {
    user,
    fetch: session.fetch,
    signIn(result) {
      queryClient.clear();
      session.setTokens(result);
      setUser({ id: result.user.id, email: result.user.email });
    },
    async signOut() {
      try {
        if (session.tokens()) await trpcClient.auth.logout.mutate();
      } finally {
        session.setTokens(undefined);
        queryClient.clear();
        setUser(undefined);
      }
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
