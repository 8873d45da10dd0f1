/**
 * Calls shared by the Enable Banking face's tests: an application registered by a world's owner, the
 * app's RS256 JWT signed with `jose` exactly as Enable Banking's docs tell apps to sign it, and plain
 * HTTP calls to `<base url>/enablebanking` — the only thing an app changes to move from Enable
 * Banking's API to Sandbank. Every answer is checked against Enable Banking's published document
 * by the test server (face-answers.ts).
 */
import { importPKCS8, SignJWT } from 'jose';
import { expect } from 'vitest';
import type { CallResult, Loose, TestApp, TestUser } from '../../helpers.ts';

export interface App {
  id: string;
  privateKey: string;
  redirectUrls: string[];
}

export const REDIRECT = 'https://budget.example/enablebanking/callback';

export interface JwtOptions {
  kid?: string;
  iss?: string;
  aud?: string;
  /** Seconds relative to now (wall time). */
  iat?: number;
  exp?: number;
  alg?: string;
  key?: string;
}

/** The app's JWT, as Enable Banking documents it (header kid + RS256; iss, aud, iat, exp). */
export async function appJwt(app: Pick<App, 'id' | 'privateKey'>, options: JwtOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ typ: 'JWT', alg: options.alg ?? 'RS256', kid: options.kid ?? app.id })
    .setIssuer(options.iss ?? 'enablebanking.com')
    .setAudience(options.aud ?? 'api.enablebanking.com')
    .setIssuedAt(now + (options.iat ?? 0))
    .setExpirationTime(now + (options.exp ?? 3600))
    .sign(await importPKCS8(options.key ?? app.privateKey, options.alg ?? 'RS256'));
}

export function enablebankingCalls(appOf: () => TestApp) {
  /** Registers an application of the user; Sandbank makes the key pair and answers the private key. */
  async function register(user: TestUser, redirectUrls = [REDIRECT]): Promise<App> {
    const res = await appOf().call('POST', '/v1/enablebanking/applications', {
      token: user.accessToken,
      body: { name: 'Budget app', redirectUrls },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return { id: res.body.data.id, privateKey: res.body.data.privateKey, redirectUrls };
  }

  const jwt = appJwt;

  /** A call of the app to the face. */
  async function eb(app: App, method: string, path: string, body?: unknown): Promise<CallResult<Loose>> {
    return appOf().call(method, `/enablebanking${path}`, { body, headers: { authorization: `Bearer ${await jwt(app)}` } });
  }

  const validUntil = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString();

  /** `POST /auth` for `aspsp`; the answer. */
  const auth = (app: App, aspsp = 'Sandbank Sandbox', state = 'state-1', days = 30) =>
    eb(app, 'POST', '/auth', {
      access: { valid_until: validUntil(days) },
      aspsp: { name: aspsp, country: 'PL' },
      state,
      redirect_url: app.redirectUrls[0],
      psu_type: 'personal',
    });

  /** The code and state of a redirect back to the app. */
  function redirected(url: string): { code: string | null; state: string | null; error: string | null } {
    const parsed = new URL(url);
    expect(`${parsed.origin}${parsed.pathname}`).toBe(REDIRECT);
    return {
      code: parsed.searchParams.get('code'),
      state: parsed.searchParams.get('state'),
      error: parsed.searchParams.get('error'),
    };
  }

  /** A session through the sandbox ASPSP (every open account): the `POST /sessions` answer. */
  async function sandboxSession(app: App, days = 30) {
    const started = await auth(app, 'Sandbank Sandbox', 'state-1', days);
    expect(started.status, JSON.stringify(started.body)).toBe(200);
    const { code } = redirected(started.body.url);
    const session = await eb(app, 'POST', '/sessions', { code });
    expect(session.status, JSON.stringify(session.body)).toBe(200);
    return session.body;
  }

  const decide = (user: TestUser, authorizationId: string, body: Record<string, unknown>) =>
    appOf().call('POST', `/v1/enablebanking/authorizations/${authorizationId}/decision`, { token: user.accessToken, body });

  const advance = async (user: TestUser, by: string) =>
    expect((await appOf().call('POST', '/v1/clock/advance', { token: user.accessToken, body: { by } })).status).toBe(200);

  return { register, jwt, eb, auth, redirected, sandboxSession, decide, advance, validUntil };
}
