/** Setting up a console test's world through the REST API and the faces, as a client makes its calls. */

export const PASSWORD = 'correct-horse-battery';

async function dataOf<T>(path: string, response: Response): Promise<T> {
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  if (response.status === 204) return undefined as T;
  return (await response.json()) as T;
}

/** A REST call as a client makes it; its `data` (nothing for a 204), or an error naming the status and body. */
export async function callApi<T>(
  origin: string,
  method: string,
  path: string,
  token: string | undefined,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${origin}${path}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return (await dataOf<{ data: T } | undefined>(path, response))?.data as T;
}

/** Registers through the API (with PASSWORD): the new user's access token and id. */
export const registerUser = (origin: string, email: string) =>
  callApi<{ accessToken: string; user: { id: string } }>(origin, 'POST', '/v1/auth/register', undefined, {
    email,
    password: PASSWORD,
  });

/** A GoCardless face call (a POST with a body, else a GET), with the face's access token if given. */
export async function callGoCardless<T>(origin: string, path: string, body?: unknown, access?: string): Promise<T> {
  const response = await fetch(`${origin}/gocardless/api/v2${path}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', ...(access ? { authorization: `Bearer ${access}` } : {}) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return dataOf<T>(path, response);
}

/**
 * A Plaid face call with the app's credentials in the body (client_id = user id, secret = an API
 * key): its status and body, whatever the status (Plaid's errors are answers to check).
 */
export async function callPlaid(
  origin: string,
  path: string,
  credentials: { client_id: string; secret: string },
  body: Record<string, unknown>,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const response = await fetch(`${origin}/plaid${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...credentials, ...body }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}
