/** The tRPC hooks for the whole console, typed end to end by the server's `AppRouter`. */
import type { AppRouter } from '@sandbank/core';
import { createTRPCContext } from '@trpc/tanstack-react-query';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();
