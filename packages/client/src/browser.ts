/**
 * `@sandbank/client/browser`: the session and the tRPC client without the Node-only parts
 * (webhook verification needs `node:crypto`), for apps that run in a browser such as the console.
 */
export { createSession, type Session, type Tokens } from './session.ts';
export { createTrpcClient, type SandbankTrpcClient } from './trpc.ts';
