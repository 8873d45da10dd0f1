/**
 * `@sandbank/client`: what a TypeScript app installs to use Sandbank (published; depends on
 * openapi-fetch only).
 * - `createSession`: tokens, `Authorization`, one refresh on 401.
 * - `createRestClient(session)`: the REST API, typed from the OpenAPI document.
 * - `verifySignature`: checks a webhook delivery (Standard Webhooks).
 * - `withWorld`, `ensureSnapshot`: a disposable world per test (docs/guides/testing-your-app.md).
 * Inside this repository, `@sandbank/client/trpc` adds `createTrpcClient(session)`, typed by the
 * server's `AppRouter` (it needs the server's sources, so it is not in the published package).
 */
export type { components, operations, paths } from './openapi.gen.ts';
export { createRestClient, type SandbankRestClient } from './rest.ts';
export { createSession, type Session, type SessionOptions, type Tokens } from './session.ts';
export { type VerifyOptions, verifySignature } from './verify.ts';
export {
  createWorld,
  type EnsureSnapshotOptions,
  ensureSnapshot,
  SandbankError,
  type SandboxWorld,
  type Snapshot,
  type WorldApiKey,
  type WorldOptions,
  type WorldSource,
  type WorldWebhook,
  withWorld,
} from './worlds.ts';
