/**
 * The Plaid items page in headless Chromium against the real API: empty, it explains how an Item is
 * made; an app (the Plaid face, called over HTTP as Plaid's SDK calls it) links an Item with a webhook
 * and makes a second one it never exchanges, and resets the first one's login; the page lists both
 * with their accounts and status, and links the webhook to its deliveries; Remove (asked first) removes the Item, and its access token then
 * answers ITEM_NOT_FOUND on the face. Fits 390 px (light and dark), accessible, photographed.
 */
import { expect, it } from 'vitest';
import { callApi, callPlaid, registerUser } from './api.ts';
import { checkOnPhone, checkPage, openPage, textOf } from './browser.ts';
import { confirm, signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

const plaid = (path: string, credentials: { client_id: string; secret: string }, body: Record<string, unknown>) =>
  callPlaid(stack.url, path, credentials, body);

it('explains how an Item is made, lists the Items an app linked, and removes one', async () => {
  const email = `plaid-${Date.now()}@example.com`;
  const { accessToken: token, user } = await registerUser(stack.url, email);
  await callApi(stack.url, 'POST', '/v1/accounts', token, { name: 'Konto osobiste' });
  await callApi(stack.url, 'POST', '/v1/accounts', token, { name: 'Oszczędności' });
  const key = await callApi<{ key: string }>(stack.url, 'POST', '/v1/api-keys', token, { name: 'Plaid app' });
  const credentials = { client_id: user.id, secret: key.key };

  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
  const { page } = watched;
  await signIn(page, stack.url, email);
  await page.getByRole('link', { name: 'Plaid items' }).click();
  await page.getByRole('heading', { name: 'Plaid items', level: 1 }).waitFor();
  expect(new URL(page.url()).pathname).toBe('/console/plaid/items');
  expect(await textOf(page, 'plaid-empty')).toContain('/item/public_token/exchange');
  expect(await textOf(page, 'plaid-empty')).toContain('docs/faces/plaid.md');
  const documentLink = page.getByRole('link', { name: 'the Plaid face’s OpenAPI document' });
  const described = await fetch(new URL((await documentLink.getAttribute('href')) ?? '', stack.url));
  expect([described.status, Object.keys(((await described.json()) as { paths: object }).paths)]).toEqual([
    200,
    expect.arrayContaining(['/sandbox/public_token/create', '/item/public_token/exchange']),
  ]);
  await checkPage(watched, 'plaid-items-empty');

  // The app links an Item (with a webhook) and resets its login; a second Item is never exchanged.
  const created = await plaid('/sandbox/public_token/create', credentials, {
    institution_id: 'ins_sandbank',
    initial_products: ['transactions'],
    options: { webhook: `${stack.receiver.url}/plaid` },
  });
  expect(created.status).toBe(200);
  const exchanged = await plaid('/item/public_token/exchange', credentials, { public_token: created.body.public_token });
  expect(exchanged.status).toBe(200);
  const { access_token: accessToken, item_id: itemId } = exchanged.body as { access_token: string; item_id: string };
  expect((await plaid('/sandbox/item/reset_login', credentials, { access_token: accessToken })).status).toBe(200);
  await plaid('/sandbox/public_token/create', credentials, {
    institution_id: 'ins_sandbank',
    initial_products: ['transactions'],
  });

  await page.reload();
  const table = page.getByRole('table', { name: 'Plaid items' });
  await expect.poll(() => table.locator('tbody tr').count()).toBe(2);
  const linked = table.getByRole('row', { name: new RegExp(itemId) });
  const cells = async () => linked.locator('td').allTextContents();
  expect((await cells())[0]).toContain('ins_sandbank; transactions');
  expect((await cells())[1]).toContain('login requiredITEM_LOGIN_REQUIRED');
  expect((await cells())[2]).toMatch(/Konto osobiste.*Oszczędności/);
  expect((await cells())[3]).toContain(`${stack.receiver.url}/plaidDeliveries`);
  expect(await table.locator('tbody tr').first().textContent()).toContain('public token not exchanged yet');
  await checkPage(watched, 'plaid-items');
  // Its webhook links to its deliveries: the worker delivered the login reset's ITEM: ERROR to the receiver.
  await linked.getByRole('link', { name: 'Deliveries' }).click();
  await page.getByRole('heading', { name: 'Deliveries' }).waitFor();
  await expect
    .poll(() => page.getByRole('table', { name: 'Deliveries' }).locator('tbody tr').count(), { timeout: 15_000 })
    .toBe(1);
  await page.goBack();
  await table.waitFor();
  await checkOnPhone(stack, email, [
    { path: '/plaid/items', name: 'plaid-items', ready: (phone) => phone.getByRole('table', { name: 'Plaid items' }).waitFor() },
  ]);

  // Remove, asked first: Cancel changes nothing; confirmed, the Item is removed on the face too.
  await linked.getByRole('button', { name: 'Remove' }).click();
  await page.getByRole('dialog').getByRole('button', { name: 'Cancel' }).click();
  const before = await plaid('/item/get', credentials, { access_token: accessToken });
  expect([before.status, before.body.item]).toMatchObject([
    200,
    { item_id: itemId, error: { error_code: 'ITEM_LOGIN_REQUIRED' } },
  ]);
  await confirm(page, linked, 'Remove');
  await expect.poll(async () => (await cells())[1]).toMatch(/^removed its token no longer works\s*since /);
  expect(await linked.getByRole('button', { name: 'Remove' }).count()).toBe(0);
  expect((await plaid('/item/get', credentials, { access_token: accessToken })).body.error_code).toBe('ITEM_NOT_FOUND');
});
