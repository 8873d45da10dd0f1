/**
 * Plaid's published OpenAPI document (`plaid/plaid-openapi`'s 2020-09-14, vendored in
 * packages/testing/reference/) in the face's tests: a response is checked against the schema Plaid
 * publishes for that path's 200 and against the face's own response schema; an error against
 * `PlaidError`. (Every face answer is also checked by the test app itself: face-answers.ts.)
 */
import { plaidAnswerProblems } from '@sandbank/testing/provider-documents';
import { expect } from 'vitest';
import { RESPONSES } from '../src/faces/plaid/wire.ts';

/** Fails unless `body` is valid as Plaid's 200 response of `path`. */
export function expectPlaidResponse(path: string, body: unknown): void {
  expect(plaidAnswerProblems(path, 200, body), path).toEqual([]);
  // And as the face's own document describes it (the zod schemas /faces/plaid/openapi.json is made from).
  const own = RESPONSES[path]?.safeParse(body);
  expect(own?.success, `${path} (our schema): ${JSON.stringify(own?.error?.issues)}`).toBe(true);
}

/** Fails unless `body` is a valid PlaidError with this code. */
export function expectPlaidError(body: unknown, code: string): void {
  expect(plaidAnswerProblems('/', 400, body)).toEqual([]);
  expect((body as { error_code: string }).error_code, JSON.stringify(body)).toBe(code);
}
