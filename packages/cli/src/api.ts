/**
 * The CLI's calls to the API: JSON over fetch with the saved session's bearer token, refreshed once
 * (POST /v1/auth/refresh) when the API answers 401, and every refusal turned into a CliError that
 * carries the API's error code and the right exit code.
 */
import { readSession, type Session, writeSession } from './credentials.ts';
import { CliError, EXIT } from './output.ts';

export const DEFAULT_API_URL = 'http://localhost:3000';

export interface Api {
  session: Session;
  /** The parsed JSON body of a 2xx answer. */
  call<T = unknown>(method: string, path: string, body?: unknown): Promise<T>;
  /** A 2xx answer as it came (e.g. a statement file); refused answers throw as `call`'s do. */
  raw(path: string, headers?: Record<string, string>, signal?: AbortSignal): Promise<Response>;
  /** A fresh access token (refreshing first if it is about to expire). */
  token(): Promise<string>;
}

export async function request(url: string, init: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init);
  } catch (error) {
    if (init.signal?.aborted) throw error;
    const cause = error instanceof Error && error.cause instanceof Error ? `: ${error.cause.message}` : '';
    throw new CliError(`could not reach ${new URL(url).origin}${cause}`, EXIT.unreachable, 'UNREACHABLE');
  }
}

/** The API's error body (`{ code, message }`) as a CliError; 401 means log in again. */
export async function refusal(response: Response): Promise<CliError> {
  let body: { code?: string; message?: string; details?: { path: string; message: string }[] } = {};
  try {
    body = (await response.json()) as typeof body;
  } catch {}
  const details = (body.details ?? []).map((detail) => `${detail.path || '(body)'}: ${detail.message}`).join('; ');
  const message =
    `${response.status} ${body.code ?? ''}: ${body.message ?? response.statusText}${details ? ` (${details})` : ''}`.replace(
      ' :',
      ':',
    );
  if (response.status === 401) return new CliError(`${message} (run sandbank login)`, EXIT.auth, body.code ?? 'UNAUTHENTICATED');
  return new CliError(message, EXIT.failed, body.code);
}

export async function openApi(apiUrlOverride?: string): Promise<Api> {
  const found = await readSession();
  if (!found) throw new CliError('not logged in: run sandbank login', EXIT.auth, 'NOT_LOGGED_IN');
  const saved: Session = found;
  const session: Session = { ...saved, apiUrl: apiUrlOverride ?? saved.apiUrl };

  async function refresh(): Promise<void> {
    const response = await request(`${session.apiUrl}/v1/auth/refresh`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ refreshToken: session.refreshToken }),
    });
    if (!response.ok) throw new CliError('the session expired: run sandbank login', EXIT.auth, 'SESSION_EXPIRED');
    const { data } = (await response.json()) as { data: { accessToken: string; refreshToken: string; expiresIn: number } };
    Object.assign(session, {
      accessToken: data.accessToken,
      refreshToken: data.refreshToken,
      expiresAt: Date.now() + data.expiresIn * 1000,
    });
    await writeSession({ ...saved, ...session, apiUrl: saved.apiUrl });
  }

  async function token(): Promise<string> {
    if (session.expiresAt - Date.now() < 30_000) await refresh();
    return session.accessToken;
  }

  async function send(path: string, init: RequestInit): Promise<Response> {
    const go = async () =>
      request(`${session.apiUrl}${path}`, { ...init, headers: { ...init.headers, authorization: `Bearer ${await token()}` } });
    let response = await go();
    if (response.status === 401) {
      await refresh();
      response = await go();
    }
    if (!response.ok) throw await refusal(response);
    return response;
  }

  return {
    session,
    token,
    async call<T>(method: string, path: string, body?: unknown) {
      const response = await send(path, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      return (await response.json()) as T;
    },
    raw(path, headers = {}, signal) {
      return send(path, { headers, ...(signal ? { signal } : {}) });
    },
  };
}
