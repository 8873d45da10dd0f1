/**
 * Time and scenarios in the console, in headless Chromium against the real API and worker: add a
 * salary schedule to an account, advance the clock a month and see it booked, apply an example
 * scenario, export the world, and reset it. Every page is accessible, within its CSP and
 * photographed, like the rest of the console.
 */

import { expect, it } from 'vitest';
import { checkPage, money, openPage, textOf } from './browser.ts';
import { openAccountPage, register } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

it('schedules a salary, advances a month, applies a scenario, exports and resets the world', async () => {
  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  await register(page, stack.url, `time-${Date.now()}@example.com`);
  await openAccountPage(page, 'Main');

  // A salary on the 10th of every month, from tomorrow.
  const schedules = page.getByRole('form', { name: 'New schedule' });
  await schedules.getByLabel('Amount each time (PLN)').fill('8000');
  await schedules.getByLabel('What it is').fill('Salary');
  await schedules.getByLabel('Rhythm').selectOption('FREQ=MONTHLY;BYMONTHDAY=10');
  await schedules.getByRole('button', { name: 'Add schedule' }).click();
  const list = page.getByRole('list', { name: 'Schedules' });
  await expect.poll(() => list.textContent()).toContain('FREQ=MONTHLY;BYMONTHDAY=10');
  expect(await list.textContent()).toContain('0 runs');
  await checkPage(watched, 'account-schedules');

  // Advance a month: the salary is booked on the 10th, by the clock.
  await page.getByRole('link', { name: 'Time & scenarios' }).click();
  await page.getByRole('heading', { name: 'Time and scenarios' }).waitFor();
  await expect.poll(() => page.getByText('the same as real time').count()).toBe(1);
  await page.getByRole('button', { name: 'Advance a month' }).click();
  await expect.poll(() => textOf(page, 'advance-result')).toContain('1 scheduled runs');
  await expect.poll(() => page.getByText(/days ahead of real time/).count()).toBe(1);
  await checkPage(watched, 'time');
  await page.getByRole('link', { name: 'Accounts' }).click();
  await expect
    .poll(() => page.getByRole('row', { name: /Main/ }).getByTestId('account-balance').textContent())
    .toBe(money(800_000));

  // Apply the student example: its accounts appear with months of history.
  await page.getByRole('link', { name: 'Time & scenarios' }).click();
  await page.getByLabel('Start from an example').selectOption('student');
  await page.getByRole('button', { name: 'Apply scenario' }).click();
  await expect.poll(() => textOf(page, 'apply-result'), { timeout: 15_000 }).toContain('Konto dla młodych');
  // A broken document is refused with the path of the problem, and nothing changes.
  await page
    .getByLabel('Scenario JSON')
    .fill('{"version": 1, "seed": 1, "accounts": [{"key": "x", "name": "X", "history": {"months": 3, "profile": "pirate"}}]}');
  await page.getByRole('button', { name: 'Apply scenario' }).click();
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toContain('scenario.accounts.0.history.profile');

  // Export: the world as a scenario document.
  await page.getByRole('button', { name: 'Export as scenario' }).click();
  await expect.poll(async () => (await page.getByTestId('export').inputValue()).length).toBeGreaterThan(1000);
  const exported = JSON.parse(await page.getByTestId('export').inputValue());
  expect(exported.accounts.map((account: { name: string }) => account.name)).toEqual(['Main', 'Konto dla młodych']);
  await checkPage(watched, 'time-scenario');

  // Reset: typed confirmation, then the world is empty and the clock is back.
  await page.getByLabel('Type RESET to confirm').fill('RESET');
  await page.getByRole('button', { name: 'Reset my world' }).click();
  await page.getByRole('status').filter({ hasText: 'Removed 2 accounts' }).waitFor();
  await expect.poll(() => page.getByText('the same as real time').count()).toBe(1);
  await page.getByRole('link', { name: 'Accounts' }).click();
  await page.getByText(/No accounts/).waitFor();
  await page.context().close();
});

it('creates a SimpleFIN setup token that a budgeting app claims once, showing up as a "SimpleFIN" key', async () => {
  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  await register(page, stack.url, `simplefin-${Date.now()}@example.com`);
  await page.getByRole('link', { name: 'API keys' }).click();
  await page.getByRole('button', { name: 'Create a setup token' }).click();
  const token = (await page.getByTestId('setup-token').textContent())?.trim() ?? '';
  const claimUrl = new URL(Buffer.from(token, 'base64').toString());
  expect(claimUrl.pathname).toMatch(/^\/simplefin\/claim\/[\w-]{43}$/);
  const claimed = await fetch(`${stack.url}${claimUrl.pathname}`, { method: 'POST' });
  expect(claimed.status).toBe(200);
  expect(await claimed.text()).toMatch(/^http:\/\/[0-9a-f-]{36}:sbk_[\w-]{43}@.+\/simplefin$/);
  expect((await fetch(`${stack.url}${claimUrl.pathname}`, { method: 'POST' })).status).toBe(403);
  // Creating another key refreshes the list: the claim's key is there too.
  await page.getByLabel('Name').fill('Budget app');
  await page.getByRole('button', { name: 'Create key' }).click();
  await page.getByRole('cell', { name: 'SimpleFIN' }).waitFor();
  await checkPage(watched, 'api-keys-simplefin');
  await page.context().close();
});
