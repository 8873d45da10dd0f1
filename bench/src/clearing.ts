/**
 * A clearing session of 10,000 payments in one advance (issue 42; bench/README.md, "Payments"): one
 * world's clock is moved to an hour before an Elixir session's cut-off, `count` payments to an
 * IBAN outside the world are made through `POST /v1/payments` (32 connections: each ACTC, its
 * debit a pending hold), then one `POST /v1/clock/advance` past the session's settlement fires
 * every payment's two steps (ACTC → ACSP at the session, ACSP → ACSC an hour later, the hold
 * posted). Beside it, in the same run, the same number of plain bookings
 * (`POST /v1/simulations/transaction`, 32 connections) on the same account: per payment and per
 * booking in milliseconds, and their ratio. The API needs LIMIT_DUE_ITEMS_PER_REQUEST ≥ count.
 */
import http from 'node:http';
import autocannon from 'autocannon';
import { post } from './seed.ts';

export interface ClearingResult {
  payments: number;
  /** How long making the payments took (32 connections), ms. */
  paymentsMs: number;
  /** The one advance that clears them: wall ms, and what it fired. */
  advanceMs: number;
  fired: { payments: number; events: number };
  /** advanceMs ÷ payments: one payment's two steps, ms. */
  advanceMsPerPayment: number;
  /** The same number of plain bookings through the API, 32 connections. */
  bookingsMs: number;
  bookingMsPerBooking: number;
  /** A payment's clearing (both steps, one advance) ÷ one booking's wall time at 32 connections. */
  clearingPerPaymentOverBooking: number;
}

const IBAN = { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' };

async function call<T>(baseUrl: string, method: string, route: string, token: string, body?: unknown): Promise<T> {
  const response = await fetch(baseUrl + route, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${method} ${route} → ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

/**
 * The clearing advance, over node:http: it may take minutes, past fetch's five-minute wait for headers.
 */
function postSlow<T>(baseUrl: string, route: string, token: string, body: unknown): Promise<T> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      `${baseUrl}${route}`,
      {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'content-length': Buffer.byteLength(payload),
        },
      },
      (response) => {
        let text = '';
        response.on('data', (chunk: Buffer) => {
          text += chunk.toString();
        });
        response.on('end', () => {
          if (response.statusCode !== 200) reject(new Error(`POST ${route} → ${response.statusCode} ${text}`));
          else resolve((JSON.parse(text) as { data: T }).data);
        });
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** `count` POSTs over `connections`, bodies from `body(n)`; throws on any non-2xx. Wall ms. */
async function fire(
  url: string,
  token: string,
  count: number,
  connections: number,
  body: (n: number) => unknown,
): Promise<number> {
  let n = 0;
  const started = performance.now();
  const result = await autocannon({
    url,
    method: 'POST',
    connections,
    amount: count,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body(n++)) }) }],
  });
  const ms = performance.now() - started;
  if (result.non2xx + result.errors + result.timeouts > 0) {
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  return ms;
}

export async function measureClearing(baseUrl: string, { count = 10_000, connections = 32 } = {}): Promise<ClearingResult> {
  const auth = await post<{ accessToken: string }>(baseUrl, '/v1/auth/register', {
    email: `bench.clearing.${crypto.randomUUID()}@example.com`,
    password: 'bench-password-1',
  });
  const token = auth.accessToken;
  const account = await call<{ id: string }>(baseUrl, 'POST', '/v1/accounts', token, { name: 'Clearing' });
  await call(baseUrl, 'POST', '/v1/simulations/transaction', token, { accountId: account.id, amount: 100_000_000_000 });
  // The first Elixir session at least two weeks ahead: the clock goes to an hour before its cut-off.
  const from = new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);
  const to = new Date(Date.now() + 30 * 86_400_000).toISOString().slice(0, 10);
  const sessions = await call<{ cutoffAt: string; sessionAt: string; settlesAt: string }[]>(
    baseUrl,
    'GET',
    `/v1/payments/calendar?from=${from}&to=${to}&scheme=elixir`,
    token,
  );
  const session = sessions[0];
  if (!session) throw new Error('no Elixir session in the calendar');
  await call(baseUrl, 'POST', '/v1/clock/advance', token, {
    to: new Date(Date.parse(session.cutoffAt) - 3_600_000).toISOString(),
  });

  const paymentsMs = await fire(`${baseUrl}/v1/payments`, token, count, connections, (n) => ({
    fromAccountId: account.id,
    to: IBAN,
    amount: 100 + (n % 100),
    description: `bench clearing ${n}`,
  }));
  const started = performance.now();
  const advanced = await postSlow<{ fired: { payments: number }; events: number }>(baseUrl, '/v1/clock/advance', token, {
    to: new Date(Date.parse(session.settlesAt) + 60_000).toISOString(),
  });
  const advanceMs = performance.now() - started;
  if (advanced.fired.payments !== 2 * count) {
    throw new Error(`the advance fired ${advanced.fired.payments} payment steps, not ${2 * count}`);
  }
  const bookingsMs = await fire(`${baseUrl}/v1/simulations/transaction`, token, count, connections, (n) => ({
    accountId: account.id,
    amount: n % 2 ? 100 : -100,
    description: `bench booking ${n}`,
  }));
  const advanceMsPerPayment = advanceMs / count;
  const bookingMsPerBooking = bookingsMs / count;
  return {
    payments: count,
    paymentsMs: Math.round(paymentsMs),
    advanceMs: Math.round(advanceMs),
    fired: { payments: advanced.fired.payments, events: advanced.events },
    advanceMsPerPayment: Number(advanceMsPerPayment.toFixed(3)),
    bookingsMs: Math.round(bookingsMs),
    bookingMsPerBooking: Number(bookingMsPerBooking.toFixed(3)),
    clearingPerPaymentOverBooking: Number((advanceMsPerPayment / bookingMsPerBooking).toFixed(2)),
  };
}
