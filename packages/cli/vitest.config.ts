import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    globalSetup: ['@sandbank/testing/global-setup'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
