/**
 * The pull endpoint's cost on 100,000 rows (issue 11): seeds one owner's 90-day window through a
 * running API (BASE_URL, DATABASE_URL of its database), then loads `GET /api/owner/:owner/transactions`
 * pages 1 and 50 with 32 clients and prints req/s and p99, and the plan of the count.
 */
import pg from 'pg';
import { load } from './load.ts';
import { createApiKey, seedHistory } from './seed.ts';

const baseUrl = process.env.BASE_URL ?? 'http://127.0.0.1:3000';
const databaseUrl = process.env.DATABASE_URL ?? '';
const post = async <T>(path: string, body: unknown, token?: string): Promise<T> => {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return ((await response.json()) as { data: T }).data;
};
const email = `pull.${Date.now()}@example.com`;
const { accessToken } = await post<{ accessToken: string }>('/v1/auth/register', { email, password: 'bench-password-1' });
const account = await post<{ id: string }>('/v1/accounts', { name: 'History' }, accessToken);
await seedHistory(databaseUrl, account.id, 100_000);
const key = await createApiKey(baseUrl, accessToken);
const client = new pg.Client({ connectionString: databaseUrl });
await client.connect();
const { rows } = await client.query(
  `explain (analyze, buffers) select count(*) from transactions
    where user_id = (select user_id from accounts where id = $1) and status <> 'voided' and date >= now() - interval '90 days'`,
  [account.id],
);
await client.end();
console.log(rows.map((row) => row['QUERY PLAN']).join('\n'));
for (const page of [1, 50]) {
  const result = await load({
    url: `${baseUrl}/api/owner/${encodeURIComponent(email)}/transactions?page=${page}`,
    connections: 32,
    durationSeconds: 10,
    headers: { authorization: `Bearer ${key}` },
  });
  console.log(
    `page ${page}: ${result.requestsPerSecond} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, non-2xx ${result.non2xx}`,
  );
}
