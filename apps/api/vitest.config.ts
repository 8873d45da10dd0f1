import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@sandbank/testing/global-setup'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser tests need Chromium: they run as their own task (`test:browser`, vitest.browser.config.ts).
    exclude: ['test/browser/**', '**/node_modules/**'],
  },
});
