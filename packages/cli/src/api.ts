/**
 * The CLI's calls to the API, on `@sandbank/client`: the session `sandbank login` saved
 * (credentials.ts) becomes the client's session, which sends the bearer, refreshes once when the
 * API answers 401 (one refresh at a time: refresh tokens rotate) and hands the new tokens back to be
 * saved. Calls are typed by the client's OpenAPI types; every refusal becomes a CliError that
 * carries the API's error code and the right exit code.
 */
import { createRestClient, createSession, type SandbankRestClient } from '@sandbank/client';
import { readSession, writeSession } from './credentials.ts';
import { CliError, EXIT } from './output.ts';

export const DEFAULT_API_URL = 'http://localhost:3000';

/** A typed call's outcome, as openapi-fetch answers it. */
interface Outcome {
  data?: unknown;
  error?: unknown;
  response: Response;
}

export interface Api {
  /** The API this run talks to (`--api-url`, else the logged-in one). */
  apiUrl: string;
  /** The client session's fetch (the bearer, one refresh on 401), answering once refreshed tokens are saved: for a client of its own (the MCP relay). */
  fetch: typeof fetch;
  /** The REST API, typed from the OpenAPI document. */
  rest: SandbankRestClient;
  /** The data of a typed call's 2xx answer; a refusal is thrown as a CliError. */
  answer<R extends Outcome>(call: Promise<R>): Promise<NonNullable<R['data']>>;
  /** A 2xx answer as it came, for what the OpenAPI document does not describe (a statement file, the event stream). */
  raw(path: string, headers?: Record<string, string>, signal?: AbortSignal): Promise<Response>;
}

/** The global fetch, with "the API is down" as a CliError (exit 4) rather than a TypeError. */
export const cliFetch: typeof fetch = async (input, init) => {
  try {
    return await fetch(input, init);
  } catch (error) {
    const request = input instanceof Request ? input : undefined;
    if (init?.signal?.aborted || request?.signal.aborted) throw error;
    const url = request?.url ?? String(input);
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new CliError(`could not reach ${new URL(url).origin}${cause}`, EXIT.unreachable, 'UNREACHABLE');
  }
};

/** The API's error body (`{ code, message, details }`) as a CliError; 401 means log in again. */
export function refusal(response: Response, body: unknown): CliError {
  const { code, message, details } = (typeof body === 'object' && body !== null ? body : {}) as {
    code?: string;
    message?: string;
    details?: { path: string; message: string }[];
  };
  const listed = (details ?? []).map((detail) => `${detail.path || '(body)'}: ${detail.message}`).join('; ');
  const text = `${response.status} ${code ?? ''}: ${message ?? response.statusText}${listed ? ` (${listed})` : ''}`.replace(
    ' :',
    ':',
  );
  if (response.status === 401) return new CliError(`${text} (run sandbank login)`, EXIT.auth, code ?? 'UNAUTHENTICATED');
  return new CliError(text, EXIT.failed, code);
}

/** The data of a typed call's 2xx answer, or its refusal thrown. */
async function answerOf<R extends Outcome>(call: Promise<R>): Promise<NonNullable<R['data']>> {
  const { data, error, response } = await call;
  if (!response.ok) throw refusal(response, error);
  return data as NonNullable<R['data']>;
}

async function bodyOf(response: Response): Promise<unknown> {
  try {
    return JSON.parse(await response.text());
  } catch {
    return undefined;
  }
}

/** A session of no one yet (for `sandbank login`): the same fetch, no tokens. */
export function signedOutApi(apiUrl: string): SandbankRestClient {
  return createRestClient(createSession({ baseUrl: apiUrl, fetch: cliFetch }));
}

export async function openApi(apiUrlOverride?: string): Promise<Api> {
  const saved = await readSession();
  if (!saved) throw new CliError('not logged in: run sandbank login', EXIT.auth, 'NOT_LOGGED_IN');
  const apiUrl = apiUrlOverride ?? saved.apiUrl;
  // Refreshed tokens are saved in order, and each call waits for them to be on disk: the old
  // refresh token is spent, so a run that ended before the write would leave a dead session.
  let saving = Promise.resolve();
  let ended = false;
  const session = createSession({
    baseUrl: apiUrl,
    fetch: cliFetch,
    tokens: { accessToken: saved.accessToken, refreshToken: saved.refreshToken },
    onTokens(tokens) {
      if (!tokens) {
        ended = true;
        return;
      }
      saving = saving.then(async () => {
        await writeSession({ apiUrl: saved.apiUrl, email: saved.email, ...tokens });
      });
    },
  });
  const settle = async (response: Response): Promise<Response> => {
    await saving;
    if (response.status === 401 && ended) {
      throw new CliError('the session expired: run sandbank login', EXIT.auth, 'SESSION_EXPIRED');
    }
    return response;
  };

  return {
    apiUrl,
    fetch: async (input, init) => settle(await session.fetch(input, init)),
    rest: createRestClient(session),
    async answer(call) {
      const outcome = await call;
      await settle(outcome.response);
      return answerOf(Promise.resolve(outcome));
    },
    async raw(path, headers = {}, signal) {
      const response = await settle(await session.fetch(`${apiUrl}${path}`, { headers, ...(signal ? { signal } : {}) }));
      if (!response.ok) throw refusal(response, await bodyOf(response));
      return response;
    },
  };
}
