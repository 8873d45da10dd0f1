/** Seeding through the public API (and SQL only for the 100,000-row history). */
import { withClient } from '@sandbank/testing';

export interface SeedUser {
  id: string;
  email: string;
  token: string;
  accountIds: string[];
}

/** POST through the public API; the `data` of a 2xx, else an error with the body. */
export async function post<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<T> {
  const response = await fetch(baseUrl + path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  const json = (await response.json()) as { data: T };
  if (!response.ok) throw new Error(`${path} → ${response.status} ${JSON.stringify(json)}`);
  return json.data;
}

export async function seedUsers(baseUrl: string, options: { users: number; accountsPerUser: number; webhookUrl: string | null }) {
  const users: SeedUser[] = [];
  for (let u = 0; u < options.users; u++) {
    const email = `bench.user${u}+${Date.now()}@example.com`;
    const auth = await post<{ user: { id: string }; accessToken: string }>(baseUrl, '/v1/auth/register', {
      email,
      password: 'bench-password-1',
    });
    const accountIds: string[] = [];
    for (let a = 0; a < options.accountsPerUser; a++) {
      const account = await post<{ id: string }>(baseUrl, '/v1/accounts', { name: `Account ${a}` }, auth.accessToken);
      accountIds.push(account.id);
      await post(
        baseUrl,
        '/v1/simulations/transaction',
        { accountId: account.id, amount: 100_000_000, description: 'Opening balance' },
        auth.accessToken,
      );
    }
    if (options.webhookUrl)
      await post(
        baseUrl,
        '/v1/webhooks',
        {
          url: options.webhookUrl,
          secret: 'bench-webhook-secret-0123456789',
          events: ['transaction.created'],
          clientId: 'bench',
        },
        auth.accessToken,
      );
    users.push({ id: auth.user.id, email, token: auth.accessToken, accountIds });
  }
  return users;
}

/** Books `count` transactions on one account directly in SQL, spread over the last 80 days. */
/** `count` posted transactions on the account, one every `spacingSeconds` (69: 100,000 in 80 days) back from now. */
export async function seedHistory(databaseUrl: string, accountId: string, count: number, spacingSeconds = 69): Promise<void> {
  await withClient(databaseUrl, async (client) => {
    await client.query(
      `insert into transactions (id, account_id, user_id, external_txn_id, amount, currency, date, description, raw, posted_at)
       select gen_random_uuid(), $1, (select user_id from accounts where id = $1), 'hist_' || i, 1000 + (i % 500), 'PLN',
              now() - (i * $3 * interval '1 second'), 'Seeded history', '{"source":"sandbank-simulator"}', now() - (i * $3 * interval '1 second')
         from generate_series(1, $2) as i`,
      [accountId, count, spacingSeconds],
    );
    await client.query(
      'update accounts set (balance, transaction_count) = (select sum(amount), count(*) from transactions where account_id = $1) where id = $1',
      [accountId],
    );
    // Steady state: autovacuum would have set the visibility map by now (index-only counts).
    await client.query('vacuum analyze transactions');
  });
}

export async function createApiKey(baseUrl: string, token: string): Promise<string> {
  const created = await post<{ key: string }>(baseUrl, '/v1/api-keys', { name: 'bench' }, token);
  return created.key;
}
