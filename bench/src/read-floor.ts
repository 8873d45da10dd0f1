/**
 * The read floor: node:http + pg doing exactly the first page of an account's history as
 * Sandbank does it — the bearer's JWT checked (once per token, as Sandbank caches it), the same
 * one statement (owned account, its counter, the page of 50), the same mapping and the same
 * response body — and nothing else: no framework, no validation, no logging, no metrics.
 * What a hand-written Node service reaches on this machine; `reads` measures Sandbank against it
 * as a variant (`floor:bench/src/read-floor.ts`). It answers only `GET /readyz` and the history.
 */
import http from 'node:http';
import { jwtVerify } from 'jose';
import pg from 'pg';

// Sandbank's session settings (packages/db/src/orm.ts): generic plans, UTC.
const pool = new pg.Pool({
  connectionString: process.env.DATABASE_URL,
  max: Number(process.env.DATABASE_POOL_SIZE ?? 20),
  options: '-c plan_cache_mode=force_generic_plan -c TimeZone=UTC',
});
const secret = new TextEncoder().encode(process.env.JWT_SECRET);
const verified = new Map<string, string>();

const COLUMNS =
  'id, account_id, external_txn_id, amount, currency, date, description, raw, status, posted_at, version, merchant, category, reversal_of';
const PAGE = {
  name: 'read-floor-history',
  text: `select c.total, p.* from accounts s
    cross join lateral (select s.transaction_count as total offset 0) c
    left join lateral (select ${COLUMNS} from transactions
      where account_id = s.id and status <> 'voided' order by date desc, id desc limit $1 offset $2) p on true
    where s.id = $3 and s.user_id = $4 order by p.date desc, p.id desc`,
};

const iso = (text: string) => `${text.slice(0, 10)}T${text.slice(11, 19)}.${`${text.slice(20, -3)}000`.slice(0, 3)}Z`;
pg.types.setTypeParser(pg.types.builtins.TIMESTAMPTZ, (text) => text);

async function userOf(authorization: string | undefined): Promise<string | null> {
  const token = authorization?.startsWith('Bearer ') ? authorization.slice(7) : '';
  const hit = verified.get(token);
  if (hit) return hit;
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'] });
    if (typeof payload.sub !== 'string') return null;
    verified.set(token, payload.sub);
    return payload.sub;
  } catch {
    return null;
  }
}

function send(res: http.ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const HISTORY = /^\/v1\/accounts\/([0-9a-f-]{36})\/transactions(?:\?limit=(\d+))?$/;
const server = http.createServer(async (req, res) => {
  try {
    if (req.url === '/readyz') return send(res, 200, { status: 'ok' });
    const [, accountId, limitParam] = HISTORY.exec(req.url ?? '') ?? [];
    const limit = limitParam ? Number(limitParam) : 50;
    if (req.method !== 'GET' || !accountId) return send(res, 404, { code: 'NOT_FOUND' });
    const userId = await userOf(req.headers.authorization);
    if (!userId) return send(res, 401, { code: 'UNAUTHENTICATED' });
    const { rows } = await pool.query({ ...PAGE, values: [limit, 0, accountId, userId] });
    const [first] = rows;
    if (!first) return send(res, 404, { code: 'NOT_FOUND' });
    const data =
      first.id === null
        ? []
        : rows.map((row) => ({
            id: row.id,
            externalTxnId: row.external_txn_id,
            accountId: row.account_id,
            amount: Number(row.amount),
            currency: row.currency,
            date: iso(row.date),
            description: row.description,
            raw: row.raw,
            status: row.status,
            postedAt: row.posted_at === null ? null : iso(row.posted_at),
            version: Number(row.version),
            merchant: row.merchant,
            category: row.category,
            reversalOf: row.reversal_of,
          }));
    const total = Number(first.total);
    send(res, 200, { data, meta: { page: 1, limit, total, hasMore: limit < total } });
  } catch (error) {
    send(res, 500, { code: 'INTERNAL', message: String(error) });
  }
});
server.listen(Number(process.env.PORT), process.env.HOST ?? '127.0.0.1');
const stop = () => {
  server.close(() => void pool.end());
  server.closeAllConnections();
};
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
