/**
 * Snapshots and child worlds in the console, in headless Chromium against the real API and worker:
 * take a snapshot, change the world, restore it (asked first), fork a child world from the snapshot
 * and from a scenario (its credentials shown once, and they work), remove the world (asked first;
 * its token stops working), open the snapshot's own page and delete it there. The snapshot limit's
 * LIMIT_EXCEEDED shows in the error note. Each page fits 390 px (light and dark), is accessible and
 * photographed at 1280 and 390 px.
 */
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { checkOnPhone, checkPage, openPage, textOf } from './browser.ts';
import { confirm, signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ env: { LIMIT_SNAPSHOTS: '2' } });

const call = <T>(method: string, path: string, token: string, body?: unknown) => callApi<T>(stack.url, method, path, token, body);

/** A registered user with one account and two transactions. */
async function seed(email: string) {
  const { accessToken: token } = await registerUser(stack.url, email);
  const account = await call<{ id: string }>('POST', '/v1/accounts', token, { name: 'Konto główne' });
  for (const amount of [500_00, -120_00]) {
    await call('POST', '/v1/simulations/transaction', token, { accountId: account.id, amount, description: 'Seed' });
  }
  return { token, accountId: account.id };
}

it('takes, restores, forks from and deletes snapshots; creates and removes child worlds', async () => {
  const email = `worlds-${Date.now()}@example.com`;
  const { token, accountId } = await seed(email);
  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
  const { page } = watched;
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
  await signIn(page, stack.url, email);
  await page.getByRole('link', { name: 'Worlds', exact: true }).click();
  await page.getByRole('heading', { name: 'Snapshots and worlds' }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/console/worlds');
  await page.getByText('No snapshots yet').waitFor();
  await page.getByText('No child world is alive').waitFor();

  // Take a snapshot: it is listed with what it keeps.
  await page.getByLabel('Name').fill('Two payments');
  await page.getByRole('button', { name: 'Take snapshot' }).click();
  await expect.poll(() => textOf(page, 'snapshot-taken')).toContain('1 accounts, 2 transactions');
  const snapshots = page.getByRole('table', { name: 'Snapshots' });
  const row = snapshots.getByRole('row', { name: /Two payments/ });
  await expect.poll(async () => (await row.locator('td').allTextContents()).slice(0, 3)).toEqual(['Two payments', '1', '2']);

  // The world moves on; a restore (asked first: Cancel changes nothing) puts it back.
  await call('POST', '/v1/simulations/transaction', token, { accountId, amount: -80_00, description: 'After' });
  await row.getByRole('button', { name: 'Restore', exact: true }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  const accounts = () => call<{ name: string; balance: number }[]>('GET', '/v1/accounts', token);
  expect((await accounts()).map((account) => account.balance)).toEqual([300_00]);
  await confirm(page, row, 'Restore');
  await expect.poll(() => textOf(page, 'restore-result')).toContain('Removed what it held: 1 accounts, 3 transactions');
  expect((await accounts()).map((account) => [account.name, account.balance])).toEqual([['Konto główne', 380_00]]);

  // Fork a child world from the snapshot: its credentials are shown once, and they are the world's.
  const fork = page.getByRole('form', { name: 'Fork a child world' });
  await fork.getByLabel('From').selectOption({ label: 'Two payments' });
  await fork.getByLabel('Lives for (real time)').selectOption('PT15M');
  await fork.getByRole('button', { name: 'Create world' }).click();
  await page.getByTestId('new-world').waitFor();
  expect(await textOf(page, 'new-world')).toContain('shown only once');
  const worldKey = (await textOf(page, 'new-world-key'))?.trim() ?? '';
  const worldAccess = (await textOf(page, 'new-world-access'))?.trim() ?? '';
  expect(worldKey).toMatch(/^sbk_/);
  await page.getByRole('button', { name: 'Copy API key' }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(worldKey);
  const forked = await call<{ name: string; balance: number }[]>('GET', '/v1/accounts', worldAccess);
  expect(forked.map((account) => [account.name, account.balance])).toEqual([['Konto główne', 380_00]]);
  const worldId = (await textOf(page, 'new-world-id'))?.trim() ?? '';
  const pull = () => call<unknown[]>('GET', `/api/owner/${worldId}/transactions`, worldKey);
  expect(await pull()).toHaveLength(2);
  const worlds = page.getByRole('table', { name: 'Child worlds' });
  await expect.poll(() => worlds.locator('tbody tr').count()).toBe(1);
  expect(await worlds.locator('tbody tr').first().textContent()).toMatch(/Two payments.*\(in 1[45] min\)/);
  await checkPage(watched, 'worlds');

  // A second snapshot reaches the limit (2 here); a third is LIMIT_EXCEEDED in the error note.
  await page.getByLabel('Name').fill('Second');
  await page.getByRole('button', { name: 'Take snapshot' }).click();
  await expect.poll(() => snapshots.locator('tbody tr').count()).toBe(2);
  await page.getByLabel('Name').fill('Third');
  await page.getByRole('button', { name: 'Take snapshot' }).click();
  const alert = page.getByRole('alert');
  await alert.waitFor();
  expect(await alert.textContent()).toContain('LIMIT_EXCEEDED');
  expect(await snapshots.locator('tbody tr').count()).toBe(2);

  // Fork from a scenario too: two worlds listed.
  await fork.getByLabel('From').selectOption('scenario:student');
  await fork.getByRole('button', { name: 'Create world' }).click();
  await expect.poll(() => worlds.locator('tbody tr').count(), { timeout: 20_000 }).toBe(2);
  expect(await worlds.locator('tbody tr').first().textContent()).toContain('a scenario');

  // Remove the snapshot's world (asked first): it leaves the list and its token stops working.
  const snapshotWorld = worlds.getByRole('row', { name: /Two payments/ });
  await confirm(page, snapshotWorld, 'Remove');
  await expect.poll(() => worlds.locator('tbody tr').count()).toBe(1);
  await expect(pull()).rejects.toThrow(/: 401 /);
  await expect(call('POST', '/v1/accounts', worldAccess, { name: 'Po usunięciu' })).rejects.toThrow(/: 401 /);

  // The snapshot's own page (its address is its id), at 390 px too; deleting it returns to the list.
  await row.getByRole('link', { name: 'Two payments' }).click();
  await page.getByRole('heading', { name: 'Two payments', exact: true }).waitFor();
  const snapshotPath = new URL(page.url()).pathname;
  expect(snapshotPath).toMatch(/^\/console\/worlds\/snapshots\/[0-9a-f-]{36}$/);
  expect(await textOf(page, 'snapshot-facts')).toContain('Transactions2');
  await checkPage(watched, 'worlds-snapshot');
  // Each page at 390 × 844 once the fork form (the last part to load) is there.
  const ready = (phone: Page) => phone.getByRole('heading', { name: 'Fork a child world', exact: false }).waitFor();
  await checkOnPhone(stack, email, [
    { path: '/worlds', name: 'worlds', ready },
    { path: snapshotPath.replace('/console', ''), name: 'worlds-snapshot', ready },
  ]);
  await confirm(page, page.getByRole('region', { name: 'What it keeps' }), 'Delete');
  await page.waitForURL(/\/console\/worlds$/);
  await expect.poll(() => snapshots.locator('tbody tr').count()).toBe(1);
  expect(await snapshots.textContent()).not.toContain('Two payments');
  const left = await call<{ name: string }[]>('GET', '/v1/sandbox/snapshots', token);
  expect(left.map((snapshot) => snapshot.name)).toEqual(['Second']);
  // The deleted snapshot's address now says so, in the error note.
  await page.goto(`${stack.url}${snapshotPath}`);
  await page.getByRole('alert').waitFor();
  expect(await page.getByRole('alert').textContent()).toContain('NOT_FOUND');
});
