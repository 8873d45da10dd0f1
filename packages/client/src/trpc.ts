/** The tRPC client: every procedure of Sandbank with end-to-end types from `AppRouter`. */
import type { AppRouter } from '@sandbank/core';
import { createTRPCClient, httpLink, type TRPCClient } from '@trpc/client';
import type { Session } from './session.ts';

export type SandbankTrpcClient = TRPCClient<AppRouter>;

export function createTrpcClient(session: Session): SandbankTrpcClient {
  return createTRPCClient<AppRouter>({
    // httpLink, not the batch link: one request per call, so a 401 is that call's own.
    links: [httpLink({ url: `${session.baseUrl}/trpc`, fetch: session.fetch })],
  });
}
