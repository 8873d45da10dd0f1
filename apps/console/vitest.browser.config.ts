/** The console in Debian's Chromium driven by playwright-core: `pnpm test:browser`, part of `pnpm test`. */
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@sandbank/testing/global-setup'],
    include: ['test/browser/**/*.test.ts'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
    // A page reacts in its own time on a loaded machine: a poll waits up to 10 s, not vitest's 1 s.
    expect: { poll: { timeout: 10_000 } },
  },
});
