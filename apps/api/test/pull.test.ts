import { TransactionSchema } from '@sandbank/schemas';
import { insertAccount, insertTransaction } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

const PARTNER_KEY = 'partner-key-0123456789-abcdefghijklmnopqrstuvwxyz';
const OTHER_PARTNER_KEY = 'second-partner-key-9876543210-zyxwvutsrqponmlkjih';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ PARTNER_API_KEYS: `${PARTNER_KEY}, ${OTHER_PARTNER_KEY}` });
});
afterAll(() => app.close());

interface Owner extends TestUser {
  key: string;
}

/** A user with an API key and, unless `transactions` is empty, one account with those transactions. */
async function createOwner(email?: string, dates: string[] = ['2026-03-10T12:00:00.000Z']): Promise<Owner> {
  const user = await app.createUser(email);
  const res = await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'Pull' } });
  if (dates.length > 0) {
    const accountId = await insertAccount(app.db, user.id);
    for (const date of dates) await insertTransaction(app.db, { moveBalance: false, accountId: accountId, date });
  }
  return { ...user, key: res.body.data.key };
}

const pull = (owner: string, key: string | undefined, query = '?from=2026-01-01&to=2026-12-31') =>
  app.call('GET', `/api/owner/${owner}/transactions${query}`, key ? { token: key } : {});

const ids = (res: { body: { data: { id: string }[] } }) => res.body.data.map((transaction) => transaction.id);

describe('GET /api/owner/:owner/transactions', () => {
  it('returns every account of the owner, closed ones included, newest first, as Transactions', async () => {
    const owner = await createOwner(undefined, []);
    const open = await insertAccount(app.db, owner.id, { name: 'Main' });
    const closed = await insertAccount(app.db, owner.id, { name: 'Old', closed: true });
    const older = (
      await insertTransaction(app.db, { moveBalance: false, accountId: closed, date: '2026-02-01T08:00:00.000Z', amount: -250 })
    ).id;
    const newer = (
      await insertTransaction(app.db, { moveBalance: false, accountId: open, date: '2026-02-03T08:00:00.000Z', amount: 5000 })
    ).id;
    const middle = (
      await insertTransaction(app.db, {
        moveBalance: false,
        accountId: open,
        date: '2026-02-02T08:00:00.000Z',
        description: 'Coffee',
      })
    ).id;
    await createOwner(); // someone else's transactions stay out

    const res = await pull(owner.id, owner.key);
    expect(res.status).toBe(200);
    expect(ids(res)).toEqual([newer, middle, older]);
    expect(res.body.meta).toEqual({ page: 1, limit: 50, total: 3, hasMore: false });
    for (const transaction of res.body.data) expect(TransactionSchema.strict().parse(transaction)).toEqual(transaction);
    expect(res.body.data[2]).toEqual({
      id: older,
      externalTxnId: `ext-${older}`,
      accountId: closed,
      amount: -250,
      currency: 'PLN',
      date: '2026-02-01T08:00:00.000Z',
      description: 'Test transaction',
      raw: { source: 'sandbank-simulator' },
      status: 'posted',
      postedAt: '2026-02-01T08:00:00.000Z',
      version: 1,
      merchant: null,
      category: null,
      reversalOf: null,
    });
  });

  describe('owner forms', () => {
    it.each([
      ['the user id', (o: Owner) => o.id],
      ['the user id in capitals', (o: Owner) => o.id.toUpperCase()],
      ['the full e-mail', (o: Owner) => o.email],
      ['the full e-mail in another case', (o: Owner) => o.email.toUpperCase()],
      ['the full e-mail with %40', (o: Owner) => o.email.replace('@', '%40')],
      ['the local part', (o: Owner) => o.email.split('@')[0] ?? ''],
      ['the local part in another case', (o: Owner) => (o.email.split('@')[0] ?? '').toUpperCase()],
    ])('resolves %s', async (_, form) => {
      const owner = await createOwner();
      for (const key of [owner.key, PARTNER_KEY]) {
        const res = await pull(form(owner), key);
        expect(res.status).toBe(200);
        expect(res.body.meta.total).toBe(1);
      }
    });

    it('resolves plus-tagged local parts and e-mails, with + and %2B', async () => {
      const owner = await createOwner('jan.kowalski+budget@example.com');
      for (const form of [
        'jan.kowalski+budget',
        'jan.kowalski%2Bbudget',
        'jan.kowalski%2bbudget',
        'Jan.Kowalski%2BBudget',
        'jan.kowalski+budget@example.com',
        'jan.kowalski%2Bbudget%40example.com',
      ]) {
        const res = await pull(form, owner.key);
        expect(res.status, form).toBe(200);
        expect(res.body.meta.total, form).toBe(1);
      }
      // The tag is part of the local part: the untagged name is someone else (here: nobody).
      expect((await pull('jan.kowalski', PARTNER_KEY)).status).toBe(404);
    });

    it('answers 404 for an unknown owner and 400 for malformed percent-encoding', async () => {
      expect((await pull('nobody-at-all', PARTNER_KEY)).status).toBe(404);
      expect((await pull('nobody@example.com', PARTNER_KEY)).status).toBe(404);
      expect((await pull('0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d', PARTNER_KEY)).status).toBe(404);
      const malformed = await pull('bad%E0%A4%A', PARTNER_KEY);
      expect(malformed.status).toBe(400);
      expect(malformed.body.code).toBe('VALIDATION_ERROR');
    });
  });

  describe('a user key', () => {
    it('reads only its own user: any other owner is 404, in every form', async () => {
      const owner = await createOwner();
      const other = await createOwner();
      for (const form of [other.id, other.email, other.email.split('@')[0] ?? '']) {
        const res = await pull(form, owner.key);
        expect(res.status).toBe(404);
        expect(res.body.code).toBe('NOT_FOUND');
      }
    });

    it('resolves a shared local part to its own user', async () => {
      const mine = await createOwner('shared.name@one.example');
      await createOwner('shared.name@two.example');
      const res = await pull('shared.name', mine.key);
      expect(res.status).toBe(200);
      expect(res.body.data[0].accountId).toBeDefined();
      expect(res.body.meta.total).toBe(1);
    });
  });

  describe('a partner key', () => {
    it('reads every owner, with either configured key', async () => {
      const a = await createOwner();
      const b = await createOwner();
      for (const key of [PARTNER_KEY, OTHER_PARTNER_KEY]) {
        expect((await pull(a.id, key)).body.meta.total).toBe(1);
        expect((await pull(b.email, key)).body.meta.total).toBe(1);
      }
    });

    it('gets 409 CONFLICT for a local part shared by several users', async () => {
      const one = await createOwner('ambiguous@one.example');
      await createOwner('ambiguous@two.example');
      const res = await pull('ambiguous', PARTNER_KEY);
      expect(res.status).toBe(409);
      expect(res.body.code).toBe('CONFLICT');
      expect((await pull('ambiguous@one.example', PARTNER_KEY)).status).toBe(200);
      expect((await pull(one.id, PARTNER_KEY)).status).toBe(200);
    });
  });
});
