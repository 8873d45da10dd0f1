/** `/console` over plain HTTP: the built page, its strict CSP, hashed assets cached for good, the SPA fallback. */
import { startTestApp, type TestApp } from '@sandbank/api/test-helpers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'silent' });
});
afterAll(async () => {
  await app?.close();
});

describe('/console', () => {
  it('serves the built page with a CSP that allows only this origin and no inline code', async () => {
    const page = await fetch(`${app.url}/console`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    const csp = page.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https?:|\*/);
    const html = await page.text();
    // Scripts and styles only as files: no inline <script>…</script>, <style> or style="…", no other host.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|style=|https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="(\/console\/assets\/[^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThanOrEqual(2);
    for (const asset of assets) {
      expect(asset).toMatch(/-[\w-]{8}\.(js|css)$/); // content-hashed name
      const response = await fetch(app.url + asset);
      expect(response.status).toBe(200);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    }
  });

  it("answers the page for the app's own routes (deep links work) and 404 for a missing asset", async () => {
    for (const route of ['/console/', '/console/accounts/0193a000-0000-7000-8000-000000000000', '/console/webhooks']) {
      const response = await fetch(app.url + route);
      expect(response.status, route).toBe(200);
      expect(await response.text()).toContain('<div id="root">');
    }
    const missing = await fetch(`${app.url}/console/assets/index-deadbeef.js`);
    expect(missing.status).toBe(404);
    expect((await missing.json()).code).toBe('NOT_FOUND');
    expect((await fetch(`${app.url}/console/`, { method: 'POST' })).status).toBe(404);
  });
});
