/**
 * The webhooks pages as a developer uses them, against the real API, a real worker and a local
 * receiver: the signing secret (a Standard Webhooks `whsec_` one) is shown once and copies; rotating it shows a new one once and
 * later deliveries carry both signatures (checked with the repo's verifier and with `new Webhook(secret)`
 * from the standardwebhooks package); faults are checked,
 * saved and shown; a test event is delivered and its attempt's request and response are on the
 * page — opened, the request's headers and body as the receiver got them and the receiver's own
 * answer; a failing endpoint looks failing and its long answer shows as truncated; a webhook disabled by a 410 says why and re-enables;
 * a revoked API key stays listed as revoked. At 390 × 844 (light and dark) and 1280 × 900: axe
 * finds no serious or critical violation and nothing scrolls sideways; each page is photographed.
 */

import { verifySignature } from '@sandbank/webhooks';
import type { Received } from '@sandbank/worker/test-receiver';
import type { Locator, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, registerUser } from './api.ts';
import { checkOnPhone, checkPage, expectAccessible, expectClean, openPage, type WatchedPage } from './browser.ts';
import { confirm, signIn } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

/** What the lab's receiver answers, which the console shows under the attempt's response. */
const LAB_ANSWER = '{"received":true,"by":"the lab receiver"}';
/** A failing endpoint's answer, longer than the 2 KB an attempt keeps. */
const LONG_ERROR = `upstream exploded: ${'E'.repeat(3000)}`;
const stack = setUpConsoleStack({
  // The receiver answers by path: a failing endpoint, one that is gone, and healthy ones.
  respond: (request) => {
    if (request.path.startsWith('/failing')) return { status: 500, body: LONG_ERROR };
    if (request.path.startsWith('/gone')) return 410;
    if (request.path === '/lab') return { status: 200, body: LAB_ANSWER, headers: { 'content-type': 'application/json' } };
    return 204;
  },
});

const call = <T>(method: string, path: string, token: string, body?: unknown) => callApi<T>(stack.url, method, path, token, body);

/** A webhook to this path of the receiver, made through the API. */
const createHook = (token: string, path: string) =>
  call<{ id: string }>('POST', '/v1/webhooks', token, {
    url: `${stack.receiver.url}${path}`,
    secret: `whsec-${path.slice(1)}-0123456789abcdef`,
    events: ['transaction.created'],
    clientId: 'lab',
  });

/** The requests the receiver got on this path, in order. */
const receivedOn = (path: string): Received[] => stack.receiver.received.filter((request) => request.path === path);

async function waitForRequests(path: string, count: number): Promise<Received[]> {
  await expect.poll(() => receivedOn(path).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(count);
  return receivedOn(path);
}

const header = (request: Received | undefined, name: string) => String(request?.headers[name] ?? '');

/** The newest delivery's attempts, opened. */
async function openNewestAttempts(page: Page) {
  const deliveries = page.getByRole('table', { name: 'Deliveries' });
  const summary = deliveries.locator('details.attempts-details').first().locator(':scope > summary');
  const open = await deliveries
    .locator('details.attempts-details')
    .first()
    .evaluate((details) => (details as HTMLDetailsElement).open);
  if (!open) await summary.click();
  return deliveries.getByTestId('attempt');
}

/** Opens an attempt's request and response. */
async function openExchange(attempt: Locator) {
  const details = attempt.locator('details.attempt-exchange');
  if (!(await details.evaluate((element) => (element as HTMLDetailsElement).open)))
    await details.locator(':scope > summary').click();
  return details;
}

/** A timestamp as the console shows it to a reader in Warsaw (en-GB). */
const formatWarsaw = (iso: string) =>
  new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'Europe/Warsaw' }).format(new Date(iso));

describe('the webhook lab in the console', () => {
  let email: string;
  let token: string;
  let watched: WatchedPage;
  let hookId: string;
  let firstSecret: string;

  beforeAll(async () => {
    email = `lab-${Date.now()}@example.com`;
    token = (await registerUser(stack.url, email)).accessToken;
    watched = await openPage(stack.browser, stack.url, { viewport: { width: 1280, height: 900 } });
    await watched.page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: stack.url });
    await signIn(watched.page, stack.url, email);
  });
  afterAll(async () => {
    await watched?.page.context().close();
  });

  it('shows the signing secret once, copies it, and the deliveries verify with it', async () => {
    const { page } = watched;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByRole('heading', { name: 'Webhooks', exact: true }).waitFor();
    await page.getByLabel('URL').fill(`${stack.receiver.url}/lab`);
    await page.getByRole('button', { name: 'Register webhook' }).click();
    const shown = page.getByTestId('new-secret');
    await shown.waitFor();
    const secret = (await shown.textContent())?.trim() ?? '';
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    firstSecret = secret;
    expect(await page.getByRole('status').filter({ has: shown }).textContent()).toContain('shown only once');
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);
    await checkPage(watched, 'webhooks-secret');

    // Shown once: after a reload it is nowhere on the page, and the API never returns it.
    await page.reload();
    await page.getByRole('link', { name: `${stack.receiver.url}/lab` }).waitFor();
    expect(await page.getByTestId('new-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret);
    const [hook] = await call<{ id: string }[]>('GET', '/v1/webhooks', token);
    hookId = hook?.id ?? '';
    expect(JSON.stringify(await call('GET', `/v1/webhooks/${hookId}`, token))).not.toContain(secret);

    // A test event: delivered, verifiable with the secret, and its attempt's request and response on the page.
    await page.getByRole('link', { name: `${stack.receiver.url}/lab` }).click();
    await page.getByRole('heading', { name: 'Deliveries', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Send test event' }).click();
    await page.getByRole('status').filter({ hasText: 'Test event sent' }).waitFor();
    const [delivered] = await waitForRequests('/lab', 1);
    expect(JSON.parse(delivered?.rawBody ?? '{}')).toMatchObject({ type: 'webhook.test', data: {} });
    expect(verifySignature(delivered?.headers ?? {}, delivered?.rawBody ?? '', secret)).toBe(true);
    // A Standard Webhooks secret: the standardwebhooks package takes it as it is.
    const standardHeaders = (delivered?.headers ?? {}) as Record<string, string>;
    expect(new Webhook(secret).verify(delivered?.rawBody ?? '', standardHeaders)).toMatchObject({ type: 'webhook.test' });
    const deliveries = page.getByRole('table', { name: 'Deliveries' });
    await expect.poll(() => deliveries.textContent(), { timeout: 15_000 }).toContain('succeeded');
    const attempts = await openNewestAttempts(page);
    const attempt = attempts.first();
    expect(await attempt.textContent()).toContain(`POST ${stack.receiver.url}/lab`);
    expect(await attempt.textContent()).toContain(`webhook-id: ${header(delivered, 'webhook-id')}`);
    expect(await attempt.getByTestId('attempt-response').textContent()).toMatch(/succeeded\s*HTTP 200 in \d+ ms/);

    // Opened: the request as the receiver got it (headers with the signature, the body pretty-printed) and its answer.
    const exchange = await openExchange(attempt);
    const request = exchange.getByTestId('attempt-request');
    expect(await request.textContent()).toContain(`POST ${stack.receiver.url}/lab`);
    expect(await request.textContent()).toContain(`webhook-signature: ${header(delivered, 'webhook-signature')}`);
    expect(await request.textContent()).toContain(`webhook-timestamp: ${header(delivered, 'webhook-timestamp')}`);
    expect(await exchange.getByTestId('request-body').textContent()).toBe(
      JSON.stringify(JSON.parse(delivered?.rawBody ?? ''), null, 2),
    );
    await exchange.getByRole('button', { name: 'Copy request body' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(delivered?.rawBody);
    const response = exchange.getByTestId('attempt-response-detail');
    expect(await response.textContent()).toContain('HTTP 200');
    expect(await response.textContent()).toContain('content-type: application/json');
    expect(await exchange.getByTestId('response-body').textContent()).toBe(JSON.stringify(JSON.parse(LAB_ANSWER), null, 2));
    expect(await exchange.getByTestId('response-truncated').count()).toBe(0);
    await exchange.getByRole('button', { name: 'Copy response body' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(LAB_ANSWER);
    expect(await page.content()).not.toContain(secret);
    // The buttons say "Copied" for a moment; the photograph shows them at rest.
    await exchange.getByRole('button', { name: 'Copy response body' }).waitFor();
    await checkPage(watched, 'webhook-lab');
  });

  it('rotates the secret after asking, shows the new one once, and later deliveries carry both signatures', async () => {
    const { page } = watched;
    const before = receivedOn('/lab').length;
    const oldSecret = firstSecret;
    await page.getByRole('button', { name: 'Rotate secret' }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.textContent()).toContain('The old one keeps signing too');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    expect(await page.getByTestId('new-secret').count()).toBe(0);
    await confirm(page, page, 'Rotate secret');
    const shown = page.getByTestId('new-secret');
    await shown.waitFor();
    const newSecret = (await shown.textContent())?.trim() ?? '';
    expect(newSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(newSecret).not.toBe(oldSecret);
    expect(await page.getByRole('status').filter({ has: shown }).textContent()).toContain('two signatures');
    // Until when the old secret signs, as the API says (the rotation + WEBHOOK_SECRET_OVERLAP_HOURS, 24 by default).
    const { secretOverlapEndsAt } = await call<{ secretOverlapEndsAt: string }>('GET', `/v1/webhooks/${hookId}`, token);
    expect(await page.getByTestId('overlap').textContent()).toContain(formatWarsaw(secretOverlapEndsAt));
    await page.getByRole('button', { name: 'Copy new secret' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(newSecret);
    expect(await page.getByText(/Last rotated/).textContent()).toContain('real time');

    await page.getByRole('button', { name: 'Send test event' }).click();
    const requests = await waitForRequests('/lab', before + 1);
    const rotated = requests.at(-1);
    const signatures = header(rotated, 'webhook-signature').split(' ');
    expect(signatures).toHaveLength(2);
    expect(signatures.every((signature) => signature.startsWith('v1,'))).toBe(true);
    expect(verifySignature(rotated?.headers ?? {}, rotated?.rawBody ?? '', newSecret)).toBe(true);
    expect(verifySignature(rotated?.headers ?? {}, rotated?.rawBody ?? '', oldSecret)).toBe(true);
    for (const either of [newSecret, oldSecret]) {
      expect(
        new Webhook(either).verify(rotated?.rawBody ?? '', (rotated?.headers ?? {}) as Record<string, string>),
      ).toMatchObject({
        type: 'webhook.test',
      });
    }
    expect(verifySignature(rotated?.headers ?? {}, rotated?.rawBody ?? '', 'whsec-not-the-secret-at-all')).toBe(false);
    await expect
      .poll(() => page.getByRole('table', { name: 'Deliveries' }).getByRole('row').count(), { timeout: 15_000 })
      .toBe(3);
  });

  it('checks the faults form as the API does, saves the faults and shows them on', async () => {
    const { page } = watched;
    const patches: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('webhooks.patchWebhook')) patches.push(request.url());
    });
    const failures = page.getByRole('group', { name: 'Failures' });
    await failures.getByRole('checkbox').check();
    await failures.getByLabel('Share of attempts (%)').fill('100');
    await failures.getByLabel('Status (400–599, not 410)').fill('410');
    const stale = page.getByRole('group', { name: 'Stale timestamp' });
    await stale.getByRole('checkbox').check();
    await stale.getByLabel('Share of attempts (%)').fill('0');
    await stale.getByLabel(/^Age/).fill('60');
    await page.getByLabel(/^Seed/).fill('has a space');
    await page.getByRole('button', { name: 'Save faults' }).click();
    expect(await page.getByRole('alert').filter({ hasText: 'fields need a fix' }).textContent()).toContain('3 fields');
    expect(await failures.getByText('410 would disable the webhook').count()).toBe(1);
    expect(await stale.getByText('A whole number from 301 to 604800 s').count()).toBe(1);
    expect(await failures.getByLabel('Status (400–599, not 410)').getAttribute('aria-invalid')).toBe('true');
    await expectAccessible(page, 'faults form with errors');
    expect(patches).toEqual([]);

    await failures.getByLabel('Status (400–599, not 410)').fill('503');
    await stale.getByLabel(/^Age/).fill('3600');
    await page.getByLabel(/^Seed/).fill('lab-seed');
    await page.getByRole('group', { name: 'Duplicates' }).getByRole('checkbox').check();
    await page.getByRole('group', { name: 'Duplicates' }).getByLabel('Share of attempts (%)').fill('100');
    await page.getByRole('button', { name: 'Save faults' }).click();
    await page.getByRole('status').filter({ hasText: 'Faults saved' }).waitFor();
    expect(patches).toHaveLength(1);
    const saved = await call<{ faults: unknown }>('GET', `/v1/webhooks/${hookId}`, token);
    expect(saved.faults).toEqual({
      seed: 'lab-seed',
      failure: { rate: 1, status: 503 },
      duplicate: { rate: 1 },
      staleTimestamp: { rate: 0, ageSeconds: 3600 },
    });
    const pageHeader = page.locator('.page-header');
    await expect.poll(() => pageHeader.textContent()).toContain('faults on');
    const list = page.getByRole('list', { name: 'Faults on' });
    expect(await list.textContent()).toContain('failures: 100 % counted as HTTP 503');
    expect(await list.textContent()).toContain('duplicates: 100 % sent twice');

    // A test event meets the faults: sent twice, counted as 503, so the delivery is failing and says why.
    const before = receivedOn('/lab').length;
    await page.getByRole('button', { name: 'Send test event' }).click();
    const requests = await waitForRequests('/lab', before + 2);
    expect(requests.at(-1)?.headers['webhook-id']).toBe(requests.at(-2)?.headers['webhook-id']);
    const newest = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1);
    await expect.poll(() => newest.getAttribute('data-state'), { timeout: 15_000 }).toBe('failing');
    const badge = newest.locator('.badge').first();
    expect(await badge.textContent()).toBe('failing');
    expect(await badge.getAttribute('class')).toContain('danger');
    const attempts = await openNewestAttempts(page);
    expect(await attempts.first().textContent()).toContain('failure counted as HTTP 503');
    expect(await attempts.first().textContent()).toContain('sent twice');
    expect(await attempts.first().getByTestId('attempt-response').textContent()).toContain('fault: HTTP 503');
    await checkPage(watched, 'webhook-faults');

    // The list says faults are on too; turning them off saves null.
    await page.getByRole('link', { name: '← Webhooks' }).click();
    const row = page.getByRole('row', { name: new RegExp(`${stack.receiver.url}/lab`) });
    await expect.poll(() => row.textContent()).toContain('faults on');
    await row.getByRole('link', { name: `${stack.receiver.url}/lab` }).click();
    await page.getByRole('button', { name: 'Turn faults off' }).click();
    await page.getByRole('status').filter({ hasText: 'Faults off' }).waitFor();
    expect((await call<{ faults: unknown }>('GET', `/v1/webhooks/${hookId}`, token)).faults).toBeNull();
    await expect.poll(() => page.locator('.page-header').textContent()).not.toContain('faults on');
    await expectClean(watched);
  });

  it('shows a failing endpoint as failing, and a webhook disabled by a 410 with its reason, until re-enabled', async () => {
    const { page } = watched;
    const failing = await createHook(token, '/failing');
    await page.goto(`${stack.url}/console/webhooks/${failing.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await waitForRequests('/failing', 1);
    const row = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1);
    await expect.poll(() => row.getAttribute('data-state'), { timeout: 15_000 }).toBe('failing');
    expect(await row.locator('.badge').first().getAttribute('class')).toContain('danger');
    expect(await row.textContent()).toContain('HTTP 500');
    await expect.poll(() => row.getByTestId('status-code').textContent()).toBe('500');
    // The receiver's long answer: its first 2 KB, said to be truncated.
    const failingExchange = await openExchange((await openNewestAttempts(page)).first());
    const excerpt = (await failingExchange.getByTestId('response-body').textContent()) ?? '';
    expect(excerpt.startsWith('upstream exploded: EEE')).toBe(true);
    expect(Buffer.byteLength(excerpt)).toBe(2048);
    expect(await failingExchange.getByTestId('response-truncated').textContent()).toContain('longer than 2 KB');

    const gone = await createHook(token, '/gone');
    await page.goto(`${stack.url}/console/webhooks/${gone.id}`);
    await page.getByRole('button', { name: 'Send test event' }).click();
    await waitForRequests('/gone', 1);
    const reason = page.getByTestId('disabled-reason');
    await expect.poll(() => reason.count(), { timeout: 15_000 }).toBe(1);
    expect(await reason.textContent()).toContain('The receiver answered 410 Gone');
    const goneRow = page.getByRole('table', { name: 'Deliveries' }).getByRole('row').nth(1);
    await expect.poll(() => goneRow.getAttribute('data-state')).toBe('failed');
    expect(await goneRow.locator('.badge').first().textContent()).toBe('failed');
    await checkPage(watched, 'webhook-disabled');
    await page.getByRole('button', { name: 'Re-enable' }).click();
    await page.getByRole('button', { name: 'Send test event' }).waitFor();
    expect(await page.locator('.page-header .badge').first().textContent()).toBe('active');
    expect((await call<{ status: string }>('GET', `/v1/webhooks/${gone.id}`, token)).status).toBe('active');
  });

  it('keeps a revoked API key listed, as revoked', async () => {
    const { page } = watched;
    await call('POST', '/v1/api-keys', token, { name: 'Old app' });
    await call('POST', '/v1/api-keys', token, { name: 'Current app' });
    await page.getByRole('link', { name: 'API keys' }).click();
    const keys = page.getByRole('table', { name: 'API keys' });
    const old = keys.getByRole('row', { name: /Old app/ });
    await confirm(page, old, 'Revoke');
    await expect.poll(() => old.getAttribute('data-status')).toBe('revoked');
    expect(await old.locator('.badge').textContent()).toBe('revoked');
    expect(await old.locator('.badge').getAttribute('class')).toContain('danger');
    expect(await old.getByRole('button', { name: 'Revoke' }).count()).toBe(0);
    const current = keys.getByRole('row', { name: /Current app/ });
    expect(await current.locator('.badge').textContent()).toBe('active');
    await page.reload();
    await expect.poll(() => keys.getByRole('row', { name: /Old app/ }).getAttribute('data-status')).toBe('revoked');
    await checkPage(watched, 'api-keys-revoked');
  });

  it('fits 390 × 844 without sideways scrolling, light and dark, axe clean', async () => {
    await checkOnPhone(stack, email, [
      {
        path: '/webhooks',
        name: 'webhooks-secret',
        // The one-time secret on screen, as right after a registration.
        ready: async (page, colorScheme) => {
          await page.getByRole('heading', { name: 'Webhooks', exact: true }).first().waitFor();
          await page.getByLabel('URL').fill(`${stack.receiver.url}/phone-${colorScheme}`);
          await page.getByRole('button', { name: 'Register webhook' }).click();
          await page.getByTestId('new-secret').waitFor();
        },
      },
      {
        path: `/webhooks/${hookId}`,
        name: 'webhook-lab',
        // An attempt's exchange opened, and the faults form showing its fields.
        ready: async (page) => {
          await page.getByRole('heading', { name: 'Deliveries', exact: true }).first().waitFor();
          await page.getByRole('table', { name: 'Deliveries' }).waitFor();
          const exchange = await openExchange((await openNewestAttempts(page)).first());
          await exchange.getByTestId('request-body').waitFor();
          await page.getByRole('group', { name: 'Failures' }).getByRole('checkbox').check();
        },
      },
      {
        path: '/api-keys',
        name: 'api-keys-revoked',
        ready: (page) => page.getByRole('heading', { name: 'API keys', exact: true }).first().waitFor(),
      },
    ]);
  });
});
