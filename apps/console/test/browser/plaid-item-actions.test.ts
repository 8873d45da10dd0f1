/**
 * A linked Item's sandbox actions on the Plaid items page, in headless Chromium against the real API
 * and worker: Require login makes the app's calls on the face answer ITEM_LOGIN_REQUIRED and its
 * webhook get ITEM: ERROR; Repair login undoes it (ITEM: LOGIN_REPAIRED); Fire sends the webhook
 * picked. The receiver is the app's webhook URL. Fits 390 px (light and dark) and is axe-clean with
 * the actions shown.
 */
import { expect, it } from 'vitest';
import { callApi, callPlaid, registerUser } from './api.ts';
import { checkOnPhone, checkPage, openPage } from './browser.ts';
import { signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack();

it('requires and repairs the login of an Item, and fires the webhook picked, as the app sees them', async () => {
  const email = `plaid-actions-${Date.now()}@example.com`;
  const origin = stack.url;
  const { accessToken: token, user } = await registerUser(origin, email);
  await callApi(origin, 'POST', '/v1/accounts', token, { name: 'Konto osobiste' });
  const { key } = await callApi<{ key: string }>(origin, 'POST', '/v1/api-keys', token, { name: 'Plaid app' });
  const plaid = async (path: string, body: Record<string, unknown>) =>
    (await callPlaid(origin, path, { client_id: user.id, secret: key }, body)).body as Record<string, unknown> & {
      error_code?: string;
      item?: { error: unknown };
    };
  const created = await plaid('/sandbox/public_token/create', {
    institution_id: 'ins_sandbank',
    initial_products: ['transactions'],
    options: { webhook: `${stack.receiver.url}/plaid-actions` },
  });
  const { access_token: accessToken, item_id: itemId } = (await plaid('/item/public_token/exchange', {
    public_token: created.public_token,
  })) as { access_token: string; item_id: string };
  const received = () =>
    stack.receiver.received
      .filter((request) => request.path === '/plaid-actions')
      .map((request) => {
        const body = JSON.parse(request.rawBody) as { webhook_type: string; webhook_code: string };
        return `${body.webhook_type}: ${body.webhook_code}`;
      })
      .sort();

  const watched = await openPage(stack.browser, origin, { viewport: { width: 1280, height: 900 } });
  const { page } = watched;
  await signIn(page, origin, email);
  await page.goto(`${origin}/console/plaid/items`);
  const row = page.getByRole('table', { name: 'Plaid items' }).getByRole('row', { name: new RegExp(itemId) });
  const status = async () => (await row.locator('td').nth(1).textContent()) ?? '';

  await row.getByRole('button', { name: 'Require login' }).click();
  await expect.poll(status).toContain('login requiredITEM_LOGIN_REQUIRED');
  expect((await plaid('/transactions/sync', { access_token: accessToken })).error_code).toBe('ITEM_LOGIN_REQUIRED');
  await checkPage(watched, 'plaid-item-login-required');

  await row.getByRole('button', { name: 'Repair login' }).click();
  await expect.poll(status).toBe('active linkedRequire login');
  expect((await plaid('/item/get', { access_token: accessToken })).item?.error).toBeNull();

  const fire = row.getByRole('form', { name: `Fire a webhook of ${itemId}` });
  await fire.getByLabel('Webhook to fire').selectOption('NEW_ACCOUNTS_AVAILABLE');
  await fire.getByRole('button', { name: 'Fire' }).click();
  await expect.poll(() => row.getByRole('status').textContent()).toBe('ITEM: NEW_ACCOUNTS_AVAILABLE queued');
  await expect
    .poll(received, { timeout: 15_000 })
    .toEqual(['ITEM: ERROR', 'ITEM: LOGIN_REPAIRED', 'ITEM: NEW_ACCOUNTS_AVAILABLE']);
  await page.context().close();

  await checkOnPhone(stack, email, [
    {
      path: '/plaid/items',
      name: 'plaid-item-actions',
      ready: (phone) => phone.getByRole('button', { name: 'Require login' }).waitFor(),
    },
  ]);
});
