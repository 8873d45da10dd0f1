// jest.config.js — TypeScript through @swc/jest (no type check, milliseconds per file), as ES modules:
// @sandbank/client is an ES module, so jest runs with `node --experimental-vm-modules` (package.json).
export default {
  globalSetup: './test/global-setup.ts',
  extensionsToTreatAsEsm: ['.ts'],
  transform: {
    '^.+\\.ts$': ['@swc/jest', { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'es6' } }],
  },
  // Each test has its own world: let a file's `it.concurrent` tests all run at once.
  maxConcurrency: 20,
  testTimeout: 30_000,
};
