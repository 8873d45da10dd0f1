/**
 * The brute-force guard under parallel bursts (issue 27, finding 1). A guess is reserved in the
 * store before its password is checked, so however many arrive at once, at most the configured
 * number are checked. Each case runs on the in-memory store (one process) and on the Postgres
 * store with the burst spread over two API processes sharing one database.
 */

import { pause } from '@sandbank/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { type CallResult, startTestApp, type TestApp } from './helpers.ts';

const BURST = 50;
const MAX_CONSECUTIVE = 10;

const apps: TestApp[] = [];
afterEach(async () => {
  // The second process shares the first one's database: close it first.
  for (const app of apps.splice(0).reverse()) await app.close();
});

async function replicas(store: 'memory' | 'postgres', env: Record<string, string>): Promise<TestApp[]> {
  const first = await startTestApp({ RATE_LIMIT_STORE: store, LOGIN_BLOCK_SECONDS: '600', ...env });
  apps.push(first);
  if (store === 'memory') return [first];
  const second = await startTestApp(first.env, { databaseUrl: first.databaseUrl });
  apps.push(second);
  return [first, second];
}

/**
 * Sends `count` calls at once (spread over the replicas) and, as soon as `limit` of them have answered
 * (the bucket is then full: refused calls wait for a slot or a block before answering), one more call:
 * the right password. Returns the burst's answers and the right one's.
 */
async function burstThenRight(
  count: number,
  limit: number,
  wrong: (i: number) => Promise<CallResult>,
  right: () => Promise<CallResult>,
): Promise<{ burst: CallResult[]; right: CallResult }> {
  let answered = 0;
  let release!: () => void;
  const bucketFull = new Promise<void>((resolve) => {
    release = resolve;
  });
  const pending = Array.from({ length: count }, (_, i) =>
    wrong(i).then((res) => {
      answered += 1;
      if (answered >= limit) release();
      return res;
    }),
  );
  await bucketFull;
  const rightRes = await right();
  const burst = await Promise.all(pending);
  return { burst, right: rightRes };
}

function statusCounts(answers: CallResult[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const { status } of answers) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe.each(['memory', 'postgres'] as const)('the brute-force guard under a parallel burst (%s store)', (store) => {
  it(`checks at most ${MAX_CONSECUTIVE} of ${BURST} parallel wrong logins for one e-mail, and refuses the right password sent inside the burst`, async () => {
    const nodes = await replicas(store, { LOGIN_MAX_CONSECUTIVE_FAILS: String(MAX_CONSECUTIVE) });
    const user = await nodes[0]!.createUser();
    const login = (node: TestApp, password: string) =>
      node.call('POST', '/v1/auth/login', { body: { email: user.email, password } });
    const { burst, right } = await burstThenRight(
      BURST,
      MAX_CONSECUTIVE,
      (i) => login(nodes[i % nodes.length]!, `wrong-password-${i}`),
      () => login(nodes[1 % nodes.length]!, user.password),
    );
    expect(statusCounts(burst)).toEqual({ 401: MAX_CONSECUTIVE, 429: BURST - MAX_CONSECUTIVE });
    expect([right.status, right.body.code]).toEqual([429, 'RATE_LIMITED']);
    // The block starts at the guess that filled the bucket and lasts LOGIN_BLOCK_SECONDS.
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(500);
    expect(Number(right.headers.get('retry-after'))).toBeLessThanOrEqual(600);
    // The lock holds after the burst too, on every replica.
    for (const node of nodes) expect((await login(node, user.password)).status).toBe(429);
  }, 60_000);

  it(`never checks more than LOGIN_MAX_FAILS_PER_IP_PER_DAY guesses from one IP, whatever the e-mails`, async () => {
    const perDay = 20;
    const nodes = await replicas(store, { LOGIN_MAX_FAILS_PER_IP_PER_DAY: String(perDay) });
    const user = await nodes[0]!.createUser();
    const { burst, right } = await burstThenRight(
      BURST,
      perDay,
      (i) =>
        nodes[i % nodes.length]!.call('POST', '/v1/auth/login', {
          body: { email: `guess-${i}@example.com`, password: 'wrong-password' },
        }),
      () => nodes[0]!.call('POST', '/v1/auth/login', { body: { email: user.email, password: user.password } }),
    );
    expect(statusCounts(burst)).toEqual({ 401: perDay, 429: BURST - perDay });
    expect(right.status).toBe(429);
    expect(Number(right.headers.get('retry-after'))).toBeGreaterThan(3600);
  }, 60_000);

  it(`checks at most ${MAX_CONSECUTIVE} of ${BURST} parallel wrong close-account passwords, and the account stays open`, async () => {
    const nodes = await replicas(store, { LOGIN_MAX_CONSECUTIVE_FAILS: String(MAX_CONSECUTIVE) });
    const user = await nodes[0]!.createUser();
    const account = (await nodes[0]!.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Spare' } })).body
      .data;
    const close = (node: TestApp, password: string) =>
      node.call('POST', `/v1/accounts/${account.id}/close`, { token: user.accessToken, body: { name: 'Spare', password } });
    const { burst, right } = await burstThenRight(
      BURST,
      MAX_CONSECUTIVE,
      (i) => close(nodes[i % nodes.length]!, `wrong-password-${i}`),
      () => close(nodes[0]!, user.password),
    );
    expect(statusCounts(burst)).toEqual({ 403: MAX_CONSECUTIVE, 429: BURST - MAX_CONSECUTIVE });
    expect(burst.filter((res) => res.status === 403).every((res) => res.body.code === 'INVALID_PASSWORD')).toBe(true);
    expect([right.status, right.body.code]).toEqual([429, 'RATE_LIMITED']);
    const after = await nodes[0]!.call('GET', `/v1/accounts/${account.id}`, { token: user.accessToken });
    expect(after.body.data.status).toBe('open');
  }, 60_000);
});

describe('the block', () => {
  it.each(['memory', 'postgres'] as const)(
    'ends LOGIN_BLOCK_SECONDS after the guess that filled the bucket (%s store)',
    async (store) => {
      const [app] = await replicas(store, { LOGIN_MAX_CONSECUTIVE_FAILS: '3', LOGIN_BLOCK_SECONDS: '2' });
      const user = await app!.createUser();
      const login = (password: string) => app!.call('POST', '/v1/auth/login', { body: { email: user.email, password } });
      await Promise.all(Array.from({ length: 6 }, () => login('wrong-password')));
      const blocked = await login(user.password);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get('retry-after'))).toBeLessThanOrEqual(2);
      await pause(2_100, "the block's window (at most 2 s, Retry-After) passes");
      expect((await login(user.password)).status).toBe(200);
    },
  );
});

describe('a reserved guess that is not a wrong password gives its points back', () => {
  it('successful logins never use up the per-IP daily failures', async () => {
    const [app] = await replicas('postgres', { LOGIN_MAX_FAILS_PER_IP_PER_DAY: '3' });
    const user = await app!.createUser();
    const login = (password: string) => app!.call('POST', '/v1/auth/login', { body: { email: user.email, password } });
    for (let i = 0; i < 5; i++) expect((await login(user.password)).status).toBe(200);
    for (let i = 0; i < 3; i++) expect((await login('wrong-password')).status).toBe(401);
    expect((await login(user.password)).status).toBe(429);
  });

  it('a close-account call refused before its password is checked costs no guess', async () => {
    const [app] = await replicas('memory', { LOGIN_MAX_CONSECUTIVE_FAILS: '2', LOGIN_MAX_FAILS_PER_IP_PER_DAY: '2' });
    const user = await app!.createUser();
    const account = (await app!.call('POST', '/v1/accounts', { token: user.accessToken, body: { name: 'Spare' } })).body.data;
    const close = (name: string, password: string) =>
      app!.call('POST', `/v1/accounts/${account.id}/close`, { token: user.accessToken, body: { name, password } });
    for (let i = 0; i < 4; i++) expect((await close('Not the name', 'wrong-password')).body.code).toBe('CONFIRMATION_MISMATCH');
    expect((await close('Spare', 'wrong-password')).body.code).toBe('INVALID_PASSWORD');
    expect((await close('Spare', user.password)).status).toBe(200);
  });
});

describe('the shared store', () => {
  it('fails closed when it is broken (not down): no password is checked on a guard only this process would see', async () => {
    const [app] = await replicas('postgres', { LOGIN_MAX_CONSECUTIVE_FAILS: '3' });
    const user = await app!.createUser();
    await app!.db.query('alter table password_guesses rename to password_guesses_elsewhere');
    const login = (password: string) => app!.call('POST', '/v1/auth/login', { body: { email: user.email, password } });
    const answers = await Promise.all(Array.from({ length: 6 }, () => login('wrong-password')));
    expect(answers.map((res) => [res.status, res.body.code])).toEqual(Array.from({ length: 6 }, () => [500, 'INTERNAL']));
    expect((await login(user.password)).status).toBe(500);
    await app!.db.query('alter table password_guesses_elsewhere rename to password_guesses');
    expect((await login(user.password)).status).toBe(200);
  });
});
