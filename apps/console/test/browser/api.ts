/** Setting up a console test's user through the REST API, and signing in through the console's page. */
import type { Page } from 'playwright-core';

export const PASSWORD = 'correct-horse-battery';

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
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  if (response.status === 204) return undefined as T;
  return ((await response.json()) as { data: T }).data;
}

/** Signs in on the console's sign-in page and waits for the accounts page. */
export async function signIn(page: Page, origin: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${origin}/console/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
}
