/**
 * Who may read what on the Enable Banking face (docs/faces/enablebanking.md): a session belongs to the
 * application that made it — another application of the same user, or another user's, finds neither
 * it nor its accounts (404), nor can it use its code; the owner decides only their own authorizations.
 * Validity on the world's clock; a code is used once even under a race; refused parameters change nothing.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers.ts';
import { enablebankingCalls, REDIRECT } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { register, eb, auth, redirected, sandboxSession, decide, advance, validUntil } = enablebankingCalls(() => app);

const rowCounts = async () =>
  (
    await app.db.query(
      `select (select count(*) from enablebanking_authorizations)::int as authorizations,
              (select count(*) from enablebanking_sessions)::int as sessions`,
    )
  ).rows[0];

describe('Enable Banking access', () => {
  it('keeps a session, its accounts and its code to the application that made it (BOLA)', async () => {
    const alice = await app.createUser();
    const bob = await app.createUser();
    await openAccount(app, alice, 'Alice');
    await openAccount(app, bob, 'Bob');
    const aliceApp = await register(alice);
    const aliceOtherApp = await register(alice);
    const bobApp = await register(bob);

    const session = await sandboxSession(aliceApp);
    const uid = session.accounts[0].uid as string;
    for (const stranger of [aliceOtherApp, bobApp]) {
      const read = await eb(stranger, 'GET', `/sessions/${session.session_id}`);
      expect([read.status, read.body.error]).toEqual([404, 'SESSION_DOES_NOT_EXIST']);
      const closed = await eb(stranger, 'DELETE', `/sessions/${session.session_id}`);
      expect([closed.status, closed.body.error]).toEqual([404, 'SESSION_DOES_NOT_EXIST']);
      for (const part of ['details', 'balances', 'transactions']) {
        const res = await eb(stranger, 'GET', `/accounts/${uid}/${part}`);
        expect([res.status, res.body.error], part).toEqual([404, 'ACCOUNT_DOES_NOT_EXIST']);
      }
    }
    // The session is still open for its own application.
    expect((await eb(aliceApp, 'GET', `/sessions/${session.session_id}`)).body.status).toBe('AUTHORIZED');

    // Another application cannot exchange the code; nor can another user decide the authorization.
    const pending = await auth(aliceApp, 'Sandbank', 'alice');
    const bobDecides = await decide(bob, pending.body.authorization_id, { approve: true });
    expect([bobDecides.status, bobDecides.body.code]).toEqual([404, 'NOT_FOUND']);
    const approved = await decide(alice, pending.body.authorization_id, { approve: true });
    const { code } = redirected(approved.body.data.redirect);
    const stolen = await eb(bobApp, 'POST', '/sessions', { code });
    expect([stolen.status, stolen.body.error]).toEqual([422, 'WRONG_AUTHORIZATION_CODE']);
    expect((await eb(aliceApp, 'POST', '/sessions', { code })).status).toBe(200);
    // The owner cannot grant another user's account.
    const bobAccount = (await app.db.query('select id from accounts where user_id = $1', [bob.id])).rows[0].id;
    const other = await auth(aliceApp, 'Sandbank', 'x');
    const foreign = await decide(alice, other.body.authorization_id, { approve: true, accountIds: [bobAccount] });
    expect([foreign.status, foreign.body.code]).toEqual([400, 'VALIDATION_ERROR']);
  });

  it('uses a code once when sessions race for it', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const application = await register(user);
    const started = await auth(application);
    const { code } = redirected(started.body.url);
    const answers = await Promise.all(Array.from({ length: 8 }, () => eb(application, 'POST', '/sessions', { code })));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 422, 422, 422, 422, 422, 422, 422]);
    const { rows } = await app.db.query('select count(*)::int as n from enablebanking_sessions s where s.application_id = $1', [
      application.id,
    ]);
    expect(rows[0].n).toBe(1);
  });

  it('decides an authorization once when decisions race', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const application = await register(user);
    const started = await auth(application, 'Sandbank', 'race');
    const answers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => decide(user, started.body.authorization_id, { approve: i % 2 === 0 })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409, 409, 409, 409, 409]);
    const { rows } = await app.db.query('select status from enablebanking_authorizations where id = $1', [
      started.body.authorization_id,
    ]);
    const winner = answers.find((a) => a.status === 200)?.body.data.status;
    expect(rows[0].status).toBe(winner);
  });

  it('reads validity on the world’s clock: a session expires as the clock passes valid_until', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    expect((await simulate(app, user, { accountId, amount: 5_00 })).status).toBe(201);
    const application = await register(user);
    const session = await sandboxSession(application, 2);
    const uid = session.accounts[0].uid as string;
    expect((await eb(application, 'GET', `/accounts/${uid}/balances`)).status).toBe(200);
    await advance(user, 'P3D');
    expect((await eb(application, 'GET', `/sessions/${session.session_id}`)).body.status).toBe('EXPIRED');
    const expired = await eb(application, 'GET', `/accounts/${uid}/transactions`);
    expect([expired.status, expired.body.error]).toEqual([401, 'EXPIRED_SESSION']);
    // The consent's end is checked against the world's now, which is 3 days ahead of the wall's.
    const stale = await eb(application, 'POST', '/auth', {
      access: { valid_until: validUntil(2) },
      aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
      state: 's',
      redirect_url: REDIRECT,
    });
    expect([stale.status, stale.body.error]).toEqual([422, 'WRONG_REQUEST_PARAMETERS']);
  });

  it('reads only what the consent covers (access.balances, access.transactions)', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const application = await register(user);
    const started = await eb(application, 'POST', '/auth', {
      access: { valid_until: validUntil(5), transactions: false },
      aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
      state: 's',
      redirect_url: REDIRECT,
    });
    const session = await eb(application, 'POST', '/sessions', { code: redirected(started.body.url).code });
    expect(session.body.access).toMatchObject({ balances: true, transactions: false });
    const uid = session.body.accounts[0].uid as string;
    expect((await eb(application, 'GET', `/accounts/${uid}/details`)).status).toBe(200);
    expect((await eb(application, 'GET', `/accounts/${uid}/balances`)).status).toBe(200);
    const refused = await eb(application, 'GET', `/accounts/${uid}/transactions`);
    expect([refused.status, refused.body.error]).toEqual([403, 'ACCESS_DENIED']);
  });

  it('pins a continuation key’s period: a clock advance and new payments between pages move nothing', async () => {
    const user = await app.createUser();
    const accountId = await openAccount(app, user);
    const dated = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    expect((await simulate(app, user, { accountId, amount: 1_000_00, date: dated(60) })).status).toBe(201);
    for (let batch = 0; batch < 13; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          simulate(app, user, { accountId, amount: -(batch * 10 + i + 1), date: dated(50 - batch) }),
        ),
      );
      for (const answer of answers) expect(answer.status).toBe(201);
    }
    const application = await register(user);
    const session = await sandboxSession(application, 30);
    const uid = session.accounts[0].uid as string;
    const first = await eb(application, 'GET', `/accounts/${uid}/transactions`);
    expect(first.body.transactions).toHaveLength(100);
    await advance(user, 'P2D');
    expect((await simulate(app, user, { accountId, amount: -5_00, description: 'After the first page' })).status).toBe(201);
    const second = await eb(application, 'GET', `/accounts/${uid}/transactions?continuation_key=${first.body.continuation_key}`);
    expect(second.status).toBe(200);
    expect(second.body.transactions).toHaveLength(31);
    expect(second.body.continuation_key).toBeUndefined();
    const ids = [...first.body.transactions, ...second.body.transactions].map(
      (t: { entry_reference: string }) => t.entry_reference,
    );
    expect(new Set(ids).size).toBe(131);
    // A fresh query sees the new payment.
    const fresh = await eb(application, 'GET', `/accounts/${uid}/transactions?transaction_status=BOOK`);
    expect([fresh.status, fresh.body.transactions?.length, fresh.body.continuation_key === undefined]).toEqual([200, 100, false]);
    const all = [...fresh.body.transactions];
    const next = await eb(application, 'GET', `/accounts/${uid}/transactions?continuation_key=${fresh.body.continuation_key}`);
    expect(next.status, JSON.stringify(next.body)).toBe(200);
    all.push(...next.body.transactions);
    expect(all.map((t: { remittance_information: string[] }) => t.remittance_information[0])).toContain('After the first page');
  });

  it('refuses wrong authorization requests and transaction queries, changing nothing', async () => {
    const user = await app.createUser();
    await openAccount(app, user);
    const application = await register(user);
    const session = await sandboxSession(application);
    const uid = session.accounts[0].uid as string;
    const before = await rowCounts();
    const body = {
      access: { valid_until: validUntil(10) },
      aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
      state: 's',
      redirect_url: REDIRECT,
    };
    const cases: [unknown, number, string][] = [
      [{ ...body, aspsp: { name: 'Nordea', country: 'FI' } }, 422, 'WRONG_ASPSP_PROVIDED'],
      [{ ...body, redirect_url: 'https://evil.example/cb' }, 422, 'REDIRECT_URI_NOT_ALLOWED'],
      [{ ...body, access: { valid_until: validUntil(181) } }, 422, 'WRONG_REQUEST_PARAMETERS'],
      [{ ...body, access: { valid_until: 'tomorrow' } }, 422, 'WRONG_REQUEST_PARAMETERS'],
      [{ ...body, state: 'x'.repeat(1025) }, 422, 'WRONG_REQUEST_PARAMETERS'],
      [{ aspsp: body.aspsp }, 422, 'WRONG_REQUEST_PARAMETERS'],
    ];
    for (const [request, status, error] of cases) {
      const res = await eb(application, 'POST', '/auth', request);
      expect([res.status, res.body.error], JSON.stringify(request).slice(0, 80)).toEqual([status, error]);
    }
    const noCode = await eb(application, 'POST', '/sessions', { code: 'made-up' });
    expect([noCode.status, noCode.body.error]).toEqual([422, 'WRONG_AUTHORIZATION_CODE']);
    expect(await rowCounts()).toEqual(before);

    const tomorrow = new Date(Date.now() + 2 * 86_400_000).toISOString().slice(0, 10);
    const queries: [string, string][] = [
      ['date_to=2026-01-01', 'DATE_TO_WITHOUT_DATE_FROM'],
      [`date_from=${tomorrow}`, 'DATE_FROM_IN_FUTURE'],
      ['date_from=2026-02-01&date_to=2026-01-01', 'WRONG_DATE_INTERVAL'],
      ['date_from=2020-01-01', 'WRONG_TRANSACTIONS_PERIOD'],
      ['date_from=yesterday', 'WRONG_REQUEST_PARAMETERS'],
      ['continuation_key=bm90LWEta2V5', 'WRONG_CONTINUATION_KEY'],
      ['transaction_status=NOPE', 'WRONG_REQUEST_PARAMETERS'],
    ];
    for (const [query, error] of queries) {
      const res = await eb(application, 'GET', `/accounts/${uid}/transactions?${query}`);
      expect([res.status, res.body.error], query).toEqual([422, error]);
    }
    const hold = await eb(application, 'GET', `/accounts/${uid}/transactions?transaction_status=HOLD`);
    expect(hold.body).toEqual({ transactions: [] });
    const notUuid = await eb(application, 'GET', '/sessions/not-a-uuid');
    expect([notUuid.status, notUuid.body.error]).toEqual([404, 'SESSION_DOES_NOT_EXIST']);
  });
});
