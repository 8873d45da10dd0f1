/**
 * The history's first page through less and less of the API's stack: what each layer of the read
 * path costs, run by `reads` as variants beside the API and the read floor, in turns. The variant's
 * name picks the layers (`BENCH_VARIANT`, which `reads` sets to it):
 * - `express`: the API's Express app and all its middleware, the page answered by tRPC's caller in
 *   place of the REST adapter; `express-<layer>+<layer>…` leaves those outer layers out;
 * - `caller`: node:http and tRPC's server-side caller (auth, zod in and out, the procedure) with a
 *   context as the API builds it (a forked EntityManager);
 * - `direct`: what the procedure does without tRPC (the cached token, the page statement, mapping)
 *   and the output schema's check; `direct-nozod` without that check.
 *
 * `BENCH_READS_VARIANTS=express:bench/src/read-layers-server.ts,caller:bench/src/read-layers-server.ts,…`
 */
import http from 'node:http';
import { buildApp, type Layer } from '@sandbank/api';
import { createLogger, loadConfig, resolveSecrets } from '@sandbank/config';
import { appRouter, bearerToken, createContextInner, type Deps, readTransactionPage, verifyAccessToken } from '@sandbank/core';
import { createOrm } from '@sandbank/db';
import { listMeta, listOf, TransactionSchema } from '@sandbank/schemas';

const layer = process.env.BENCH_VARIANT ?? 'caller';
const config = loadConfig();
const logger = createLogger(config, 'api');
const orm = await createOrm({ url: config.database.url ?? '', poolSize: config.database.poolSize });
const deps: Deps = { config, secrets: resolveSecrets(config), orm, logger };
const PageSchema = listOf(TransactionSchema);
const HISTORY = /^\/v1\/accounts\/([0-9a-f-]{36})\/transactions(?:\?limit=(\d+))?$/;

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

async function page(req: http.IncomingMessage) {
  const [, id = '', limitParam] = HISTORY.exec(req.url ?? '') ?? [];
  const limit = limitParam ? Number(limitParam) : 50;
  if (layer === 'caller' || layer.startsWith('express')) {
    const ctx = createContextInner({
      deps,
      requestId: 'r',
      authorization: req.headers.authorization,
      ip: '127.0.0.1',
      log: logger,
    });
    return appRouter.createCaller(ctx).transactions.listAccountTransactions({ id, ...(limitParam ? { limit } : {}) });
  }
  const user = await verifyAccessToken(deps, bearerToken(req.headers.authorization) ?? '');
  const found = await readTransactionPage(orm.em, {
    scope: { userId: user.id, accountId: id },
    range: {},
    page: 1,
    limit,
    total: 'counter',
  });
  if (!found) throw new Error('not found');
  const body = { data: found.items, meta: listMeta(1, limit, found.total) };
  return layer === 'direct' ? PageSchema.parse(body) : body;
}

const bare = (req: http.IncomingMessage, res: http.ServerResponse) => {
  if (req.url === '/readyz') return send(res, 200, { status: 'ok' });
  page(req).then(
    (body) => send(res, 200, body),
    (error: unknown) => send(res, 500, { message: String(error) }),
  );
};
const [, expressLayers] = /^express(?:-(.*))?$/.exec(layer) ?? [];
const server = layer.startsWith('express')
  ? http.createServer(
      buildApp(deps, {
        ablation: {
          without: new Set((expressLayers?.split('+') ?? []) as Layer[]),
          route: { method: 'get', path: '/v1/accounts/:id/transactions', handler: (req, res) => bare(req, res) },
        },
      }),
    )
  : http.createServer(bare);
server.listen(config.http.port, config.http.host);
process.on('SIGTERM', () => {
  server.close();
  server.closeAllConnections();
  void orm.close().then(() => process.exit(0));
});
