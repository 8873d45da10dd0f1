/**
 * `/docs` in a real browser: Debian's Chromium driven by playwright-core loads the page, Swagger
 * UI renders every operation from `/openapi.json`, and the page's CSP refuses nothing (no console
 * CSP errors, no `securitypolicyviolation` events) and nothing is fetched from another host.
 * Chromium is required: the `test:browser` task installs it (scripts/ensure-chromium.sh); without it this test fails, it never skips.
 */
import { launchBrowser } from '@sandbank/testing/browser';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../helpers.ts';

let app: TestApp;
let browser: Browser;
beforeAll(async () => {
  [app, browser] = await Promise.all([startTestApp(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await app?.close();
});

describe('/docs', () => {
  it('serves the page and its assets from this service, with a CSP that allows only what it needs', async () => {
    const page = await fetch(`${app.url}/docs`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/unsafe-eval|https?:|\*/);
    const html = await page.text();
    expect(html).not.toMatch(/<script>|https?:\/\//);
    const bundle = await fetch(`${app.url}/docs/assets/swagger-ui-bundle.js`);
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toContain('javascript');
    expect((await fetch(`${app.url}/docs/assets/package.json`)).status).toBe(404);
  });

  it('renders every operation in Chromium without a CSP violation or an outside request', { timeout: 60_000 }, async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const consoleErrors: string[] = [];
    const outside: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('pageerror', (error) => consoleErrors.push(String(error)));
    await page.route('**/*', (route) => {
      const url = new URL(route.request().url());
      if (url.origin === app.url || url.protocol === 'data:') return route.continue();
      outside.push(url.href);
      return route.abort();
    });
    // Browser code as text: this package's types have no DOM.
    await page.addInitScript({
      content: `window.cspViolations = [];
        document.addEventListener('securitypolicyviolation', (event) => {
          window.cspViolations.push(event.violatedDirective + ' ' + event.blockedURI);
        });`,
    });

    await page.goto(`${app.url}/docs`);
    await page.waitForSelector('.opblock-summary', { timeout: 30_000 });
    const spec = (await (await fetch(`${app.url}/openapi.json`)).json()) as { paths: Record<string, object> };
    const operations = Object.values(spec.paths).reduce((count, item) => count + Object.keys(item).length, 0);
    await expect.poll(() => page.locator('.opblock').count()).toBe(operations);
    expect(await page.locator('.info .title').textContent()).toContain('Sandbank');
    // Open one operation: its schemas, examples and highlighted code render too.
    await page.locator('.opblock-summary').first().click();
    await page.waitForSelector('.opblock-body .responses-wrapper');

    const violations = await page.evaluate<string[]>('window.cspViolations');
    expect(violations).toEqual([]);
    expect(consoleErrors.filter((text) => /Content[ -]Security[ -]Policy/i.test(text))).toEqual([]);
    expect(consoleErrors).toEqual([]);
    expect(outside).toEqual([]);
    await context.close();
  });
});
