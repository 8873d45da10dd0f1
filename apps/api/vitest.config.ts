import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@sandbank/testing/global-setup'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The polls here wait for the event log's gap-free horizon, which a transaction open anywhere in
    // the cluster holds back: under parallel test files (another file's 50,000-row apply, say) that
    // took longer than expect.poll's default second in CI.
    expect: { poll: { timeout: 15_000 } },
    // Browser tests need Chromium: they run as their own task (`test:browser`, vitest.browser.config.ts).
    exclude: ['test/browser/**', '**/node_modules/**'],
  },
});
