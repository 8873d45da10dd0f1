/** What a user does on the console's own pages, shared by the browser tests. */
import type { Locator, Page } from 'playwright-core';
import { PASSWORD } from './api.ts';

/** On the sign-in page (opened, or where a link to a page led): fills it in and submits it. */
export async function submitSignIn(page: Page, email: string, password = PASSWORD): Promise<void> {
  await page.getByRole('heading', { name: 'Sign in' }).waitFor();
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Signs in on the console's sign-in page and waits for the accounts page. */
export async function signIn(page: Page, origin: string, email: string, password = PASSWORD): Promise<void> {
  await page.goto(`${origin}/console/login`);
  await submitSignIn(page, email, password);
  await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
}

/** Registers on the console's page (with PASSWORD) and waits for the accounts page. */
export async function register(page: Page, origin: string, email: string): Promise<void> {
  await page.goto(`${origin}/console/register`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel('Password').fill(PASSWORD);
  await page.getByRole('button', { name: 'Register' }).click();
  await page.getByRole('heading', { name: 'Accounts', exact: true }).waitFor();
}

/** From the accounts page: opens an account with this name and goes to its page. */
export async function openAccountPage(page: Page, name: string): Promise<void> {
  await page.getByLabel('Name').fill(name);
  await page.getByRole('button', { name: 'Open account' }).click();
  await page.getByRole('link', { name }).click();
  await page.getByRole('heading', { name }).waitFor();
}

interface SimulateOptions {
  pending?: boolean;
  merchant?: string;
}

/** Books a transaction with the simulate form (of an account's page or the Simulate page). */
export async function simulate(
  page: Page,
  direction: 'in' | 'out',
  amount: string,
  description: string,
  options: SimulateOptions = {},
): Promise<void> {
  await page.getByLabel(direction === 'in' ? 'Money in (credit)' : 'Money out (debit)').check();
  await page.getByLabel(options.pending ? 'Pending (card authorisation)' : 'Posted now').check();
  await page.getByLabel('Amount (PLN)').fill(amount);
  await page.getByLabel('Description').fill(description);
  await page.getByLabel('Merchant').fill(options.merchant ?? '');
  await page.getByRole('button', { name: 'Simulate' }).click();
}

/** Clicks the scope's button and confirms in the dialog it opens (the dialog's button of the same name). */
export async function confirm(page: Page, scope: Page | Locator, label: string): Promise<void> {
  await scope.getByRole('button', { name: label, exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: label, exact: true }).click();
}
