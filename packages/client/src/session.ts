/**
 * A session: the tokens of one signed-in user and a `fetch` that sends them. When a call answers
 * 401, it refreshes the session once and repeats the call; concurrent 401s share one refresh
 * (refresh tokens rotate and a reused one revokes the session, so two refreshes would log the
 * user out). Both clients (tRPC and REST) take this `fetch`.
 */

export interface Tokens {
  accessToken: string;
  refreshToken: string;
}

export interface SessionOptions {
  /** The service, e.g. `https://sandbank.example` (no trailing slash needed). */
  baseUrl: string;
  /** Tokens from an earlier sign-in, if any. */
  tokens?: Tokens;
  /** Called whenever the tokens change (sign-in, refresh) or are dropped (`undefined`): persist them here. */
  onTokens?: (tokens: Tokens | undefined) => void;
  /** The underlying fetch (default: the global one). */
  fetch?: typeof fetch;
  /**
   * How to refresh, when the refresh token is held elsewhere (the console keeps it in an
   * `HttpOnly` cookie; its `tokens.refreshToken` is then empty). Answers the new tokens, or
   * `undefined` when the refresh was refused (the session ends); a network failure should throw
   * (the session is kept). Default: `POST /v1/auth/refresh` with the refresh token.
   */
  refresh?: () => Promise<Tokens | undefined>;
}

export interface Session {
  readonly baseUrl: string;
  /** A fetch that adds `Authorization: Bearer` and refreshes on 401. */
  fetch: typeof fetch;
  /** The current tokens, if signed in. */
  tokens(): Tokens | undefined;
  /** Signs in with the tokens of a register, login or refresh answer. */
  setTokens(tokens: Tokens | undefined): void;
  /** Refreshes now (one refresh at a time); false when there is no session to refresh. With `options.refresh` it also restores a session held elsewhere (a cookie) before any tokens are set. */
  refresh(): Promise<boolean>;
}

// A 401 from these means wrong credentials, not an expired token: refreshing would not help.
const NO_REFRESH = /\/(v1\/auth\/(login|register|refresh)|trpc\/auth\.(login|register|refresh))$/;

export function createSession(options: SessionOptions): Session {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const baseFetch = options.fetch ?? globalThis.fetch;
  let current = options.tokens;
  let refreshing: Promise<boolean> | undefined;

  const setTokens = (tokens: Tokens | undefined) => {
    current = tokens ? { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken } : undefined;
    options.onTokens?.(current);
  };

  const refreshNow = async (): Promise<boolean> => {
    if (options.refresh) {
      const renewed = await options.refresh();
      setTokens(renewed);
      return renewed !== undefined;
    }
    const refreshToken = current?.refreshToken;
    if (!refreshToken) return false;
    const response = await baseFetch(`${baseUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken }),
    });
    if (!response.ok) {
      setTokens(undefined);
      return false;
    }
    const { data } = (await response.json()) as { data: Tokens };
    setTokens(data);
    return true;
  };

  const refresh = (): Promise<boolean> => {
    refreshing ??= refreshNow().finally(() => {
      refreshing = undefined;
    });
    return refreshing;
  };

  const send = (request: Request, accessToken: string | undefined): Promise<Response> => {
    if (accessToken) request.headers.set('authorization', `Bearer ${accessToken}`);
    return baseFetch(request);
  };

  const sessionFetch = async (input: Request | string | URL, init?: RequestInit): Promise<Response> => {
    const request = new Request(input, init);
    // A call that brings its own credentials (e.g. an API key for the pull endpoint) keeps them.
    if (request.headers.has('authorization')) return baseFetch(request);
    const again = request.clone(); // before sending: a body can be read once
    const used = current?.accessToken;
    const response = await send(request, used);
    if (response.status !== 401 || !current || NO_REFRESH.test(new URL(request.url).pathname)) return response;
    // Another call may have refreshed meanwhile; then the new token is all this one needs.
    const renewed = current.accessToken !== used || (await refresh());
    return renewed ? send(again, current?.accessToken) : response;
  };

  return { baseUrl, fetch: sessionFetch as typeof fetch, tokens: () => current, setTokens, refresh };
}
