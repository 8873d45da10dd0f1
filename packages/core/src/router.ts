/** The one router: every endpoint of Sandbank, by area, served as REST (the API's REST adapter) and at `/trpc`. */

import { accountsRouter } from './routers/accounts/router.ts';
import { authRouter } from './routers/auth/router.ts';
import { clockRouter } from './routers/clock/router.ts';
import { currenciesRouter } from './routers/currencies/router.ts';
import { enablebankingRouter } from './routers/enablebanking/router.ts';
import { eventsRouter } from './routers/events/router.ts';
import { gocardlessRouter } from './routers/gocardless/router.ts';
import { integrationsRouter } from './routers/integrations/router.ts';
import { paymentsRouter } from './routers/payments/router.ts';
import { plaidRouter } from './routers/plaid/router.ts';
import { sandboxRouter } from './routers/sandbox/router.ts';
import { scenariosRouter } from './routers/scenarios/router.ts';
import { schedulesRouter } from './routers/schedules/router.ts';
import { simplefinRouter } from './routers/simplefin/router.ts';
import { simulationsRouter } from './routers/simulations/router.ts';
import { transactionsRouter } from './routers/transactions/router.ts';
import { webhooksRouter } from './routers/webhooks/router.ts';
import { worldsRouter } from './routers/worlds/router.ts';
import { type Meta, router } from './trpc.ts';

export const appRouter = router({
  auth: authRouter,
  accounts: accountsRouter,
  currencies: currenciesRouter,
  transactions: transactionsRouter,
  simulations: simulationsRouter,
  payments: paymentsRouter,
  integrations: integrationsRouter,
  webhooks: webhooksRouter,
  events: eventsRouter,
  clock: clockRouter,
  schedules: schedulesRouter,
  sandbox: sandboxRouter,
  scenarios: scenariosRouter,
  simplefin: simplefinRouter,
  gocardless: gocardlessRouter,
  enablebanking: enablebankingRouter,
  plaid: plaidRouter,
  worlds: worldsRouter,
});

export type AppRouter = typeof appRouter;

/** Each procedure's path (e.g. `auth.register`) and its meta, read once from the router. */
export function procedureMetas(): Map<string, Meta> {
  const metas = new Map<string, Meta>();
  for (const [path, procedure] of Object.entries(appRouter._def.procedures)) {
    const meta = (procedure as unknown as { _def: { meta?: Meta } })._def.meta;
    if (meta) metas.set(path, meta);
  }
  return metas;
}
