/**
 * Shared security cases (run for every protected procedure): no token, a malformed token and
 * a token of another user (who must get 404, never 403: existence does not leak).
 */
import { expect, it } from 'vitest';
import type { TestApp, TestUser } from './helpers.ts';

export interface ProtectedRoute {
  method: string;
  /** The path for a resource owned by `owner`. */
  path: (owner: TestUser) => Promise<string> | string;
  body?: unknown;
  /** Whether the path names a resource, so another user must get 404. */
  ownsResource?: boolean;
}

export function itEnforcesAuth(getApp: () => TestApp, route: ProtectedRoute): void {
  it(`${route.method} requires a valid access token`, async () => {
    const app = getApp();
    const owner = await app.createUser();
    const path = await route.path(owner);
    const body = route.body;
    for (const token of [undefined, 'not-a-jwt', `${owner.accessToken}x`]) {
      const res = await app.call(route.method, path, token ? { token, body } : { body });
      expect(res.status).toBe(401);
      expect(res.body.code).toBe('UNAUTHENTICATED');
    }
  });

  if (route.ownsResource) {
    it(`${route.method} answers 404 for another user's resource`, async () => {
      const app = getApp();
      const owner = await app.createUser();
      const stranger = await app.createUser();
      const path = await route.path(owner);
      const res = await app.call(route.method, path, { token: stranger.accessToken, body: route.body });
      expect(res.status).toBe(404);
      expect(res.body.code).toBe('NOT_FOUND');
    });
  }
}
