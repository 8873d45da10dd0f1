/**
 * `@sandbank/client`: what a TypeScript app installs to use Sandbank.
 * - `createSession`: tokens, `Authorization`, one refresh on 401.
 * - `createTrpcClient(session)`: every procedure, typed by the server's `AppRouter`.
 * - `createRestClient(session)`: the REST API, typed from the OpenAPI document.
 * - `verifySignature`: checks a webhook delivery (Standard Webhooks).
 */
export { verifySignature } from '@sandbank/webhooks';
export type { components, operations, paths } from './openapi.gen.ts';
export { createRestClient, type SandbankRestClient } from './rest.ts';
export { createSession, type Session, type SessionOptions, type Tokens } from './session.ts';
export { createTrpcClient, type SandbankTrpcClient } from './trpc.ts';
