/** The browser tests (Debian's Chromium driven by playwright-core): `pnpm test:browser`, part of `pnpm test`. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@sandbank/testing/global-setup'],
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
