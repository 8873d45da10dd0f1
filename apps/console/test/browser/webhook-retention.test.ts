/**
 * An attempt past the retention of its request and response, in headless Chromium against the real
 * API and a real worker whose retention loop runs every 200 ms (WEBHOOK_ATTEMPT_RETENTION_HOURS=1):
 * the attempt's exchange, moved two hours into the past, is cleared by the worker, and the webhook's
 * page says it is no longer kept, when, and what stays, instead of empty request and response blocks.
 */
import { expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { checkPage, openPage } from './browser.ts';
import { signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ env: { WEBHOOK_ATTEMPT_RETENTION_HOURS: '1', WORKER_ATTEMPT_RETENTION_MS: '200' } });

it('says an attempt’s request and response are no longer kept once the worker cleared them', async () => {
  const email = `retention-${Date.now()}@example.com`;
  const { accessToken: token } = await registerUser(stack.url, email);
  const call = <T>(method: string, path: string, body?: unknown) => callApi<T>(stack.url, method, path, token, body);
  const hook = await call<{ id: string }>('POST', '/v1/webhooks', {
    url: `${stack.receiver.url}/kept`,
    secret: 'whsec-retention-0123456789abcdef',
    events: ['transaction.created'],
    clientId: 'retention',
  });
  await call('POST', `/v1/webhooks/${hook.id}/test`);
  await expect.poll(() => stack.receiver.received.filter((request) => request.path === '/kept').length).toBe(1);
  type Attempts = { attempts: { request: unknown; exchangeRemovedAt: string | null }[] }[];
  const attempts = async () => (await call<Attempts>('GET', `/v1/webhooks/${hook.id}/deliveries`)).flatMap((d) => d.attempts);
  await expect.poll(async () => (await attempts()).length).toBe(1);
  expect((await attempts())[0]).toMatchObject({ request: expect.any(Object), exchangeRemovedAt: null });

  // Two hours ago, by the wall clock the retention reads: the worker's next pass clears it.
  await stack.app.db.query(
    `update webhook_delivery_attempts set started_at = started_at - interval '2 hours'
      where delivery_id in (select id from webhook_deliveries where webhook_id = $1)`,
    [hook.id],
  );
  await expect.poll(async () => (await attempts())[0]?.exchangeRemovedAt ?? null, { timeout: 10_000 }).not.toBeNull();
  expect((await attempts())[0]).toMatchObject({ request: null });

  const watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
  const { page } = watched;
  await signIn(page, stack.url, email);
  await page.goto(`${stack.url}/console/webhooks/${hook.id}`);
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  await deliveries.locator('details.attempts-details > summary').first().click();
  const attempt = deliveries.getByTestId('attempt').first();
  const summary = attempt.locator('details.attempt-exchange > summary');
  expect(await summary.textContent()).toContain('(no longer kept)');
  await summary.click();
  const note = attempt.getByTestId('exchange-removed');
  expect(await note.textContent()).toContain('WEBHOOK_ATTEMPT_RETENTION_HOURS');
  expect(await note.textContent()).toContain('Its status, duration and error above stay.');
  expect(await attempt.getByTestId('attempt-request').count()).toBe(0);
  expect(await attempt.getByTestId('attempt-response').textContent()).toMatch(/succeeded\s*HTTP 204 in \d+ ms/);
  await checkPage(watched, 'webhook-exchange-removed');
  await page.context().close();
});
