/** Setting up a console test's world through the REST API and the faces, as a client makes its calls. */
import { appJwt } from '@sandbank/api/test-enablebanking';

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

/**
 * An Enable Banking face call of an application (its own RS256 JWT, signed as Enable Banking documents):
 * the answer's body, or an error naming the status and body.
 */
export async function callEnableBanking<T>(
  origin: string,
  application: { id: string; privateKey: string },
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${origin}/enablebanking${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${await appJwt(application)}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return dataOf<T>(path, response);
}

/**
 * An application registered by the owner with a session through `Sandbank Sandbox` (it links every open
 * account at once, so `url` carries the code straight back): the application and the session's id.
 */
export async function enableBankingSession(
  origin: string,
  token: string,
  name: string,
): Promise<{ application: { id: string; privateKey: string }; sessionId: string }> {
  const redirect = `${origin}/healthz`;
  const application = await callApi<{ id: string; privateKey: string }>(origin, 'POST', '/v1/enablebanking/applications', token, {
    name,
    redirectUrls: [redirect],
  });
  const started = await callEnableBanking<{ url: string }>(origin, application, 'POST', '/auth', {
    access: { valid_until: new Date(Date.now() + 30 * 86_400_000).toISOString() },
    aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
    state: 'console',
    redirect_url: redirect,
    psu_type: 'personal',
  });
  const code = new URL(started.url).searchParams.get('code');
  const session = await callEnableBanking<{ session_id: string }>(origin, application, 'POST', '/sessions', { code });
  return { application, sessionId: session.session_id };
}

/** A DOMESTIC (Elixir) payment of the application to an IBAN, at `aspsp`: its id and Enable Banking's status. */
export const enableBankingPayment = (
  origin: string,
  application: { id: string; privateKey: string },
  { amount, creditor, aspsp }: { amount: string; creditor: string; aspsp: string },
) =>
  callEnableBanking<{ payment_id: string; status: string }>(origin, application, 'POST', '/payments', {
    payment_type: 'DOMESTIC',
    payment_request: {
      credit_transfer_transaction: [
        {
          instructed_amount: { currency: 'PLN', amount },
          beneficiary: {
            creditor: { name: creditor },
            creditor_account: { identification: 'PL61109010140000071219812874', scheme_name: 'IBAN' },
          },
          remittance_information: ['Czynsz grudzień'],
        },
      ],
    },
    aspsp: { name: aspsp, country: 'PL' },
    state: 'console',
    redirect_url: `${origin}/healthz`,
  });
