/**
 * The Enable Banking face (docs/faces/enablebanking.md) end to end, as an app that changed only its
 * base URL: register an application, read it back, list the ASPSPs, start an authorization with the
 * sandbox ASPSP, follow the redirect's code into a session, read details and balances, page through a
 * year of transactions (100 a page, continuation_key), close the session. Every answer is validated
 * against Enable Banking's published document (face-answers.ts fails the file otherwise).
 */
import { ibanOf } from '@sandbank/core';
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../../src/faces/enablebanking/endpoints.ts';
import { type Loose, startTestApp, type TestApp } from '../../helpers.ts';
import { spectralErrors } from '../../spectral.ts';
import { enablebankingCalls, REDIRECT } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { register, eb, auth, redirected, decide } = enablebankingCalls(() => app);

const DAY = 86_400_000;
const daysAgo = (days: number) => new Date(Date.now() - days * DAY).toISOString();
const warsawDay = (instant: Date) =>
  new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw', year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    instant,
  );

describe('Enable Banking face, end to end', () => {
  it('registers, authorizes through the sandbox ASPSP and pages through a year of transactions', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Konto osobiste');
    const savings = await openAccount(app, user, 'Oszczędności');
    // A year of history: a salary 360 days ago, then 239 payments, one every 1.5 days; and one pending.
    expect(
      (await simulate(app, user, { accountId: main, amount: 10_000_00, description: 'Pensja', date: daysAgo(360) })).status,
    ).toBe(201);
    for (let batch = 0; batch < 24; batch++) {
      const calls = Array.from({ length: 10 }, (_, i) => batch * 10 + i)
        .filter((n) => n < 239)
        .map((n) =>
          simulate(app, user, {
            accountId: main,
            amount: -(100 + n),
            description: `Zakup ${n}`,
            merchant: 'Żabka',
            date: daysAgo(358 - n * 1.5),
          }),
        );
      for (const res of await Promise.all(calls)) expect(res.status).toBe(201);
    }
    const pending = await simulate(app, user, { accountId: main, amount: -12_34, status: 'pending', merchant: 'Orlen' });
    expect(pending.status).toBe(201);

    const application = await register(user);
    expect(application.privateKey).toMatch(/^-----BEGIN PRIVATE KEY-----/);
    // Only the public key is kept.
    const { rows } = await app.db.query('select * from enablebanking_applications where id = $1', [application.id]);
    expect(JSON.stringify(rows)).not.toContain('PRIVATE KEY');
    expect(rows[0].public_key).toMatch(/^-----BEGIN PUBLIC KEY-----/);

    const me = await eb(application, 'GET', '/application');
    expect(me.status).toBe(200);
    expect(me.body).toMatchObject({
      kid: application.id,
      name: 'Budget app',
      redirect_urls: [REDIRECT],
      environment: 'SANDBOX',
      active: true,
    });

    const aspsps = await eb(application, 'GET', '/aspsps?country=PL');
    expect(aspsps.status).toBe(200);
    expect(aspsps.body.aspsps.map((a: { name: string }) => a.name).slice(0, 2)).toEqual(['Sandbank Sandbox', 'Sandbank']);
    expect((await eb(application, 'GET', '/aspsps?country=FI')).body.aspsps).toEqual([]);

    const started = await auth(application, 'Sandbank Sandbox', 'my-state');
    expect(started.status).toBe(200);
    expect(started.body.authorization_id).toMatch(/^[0-9a-f-]{36}$/);
    const back = redirected(started.body.url);
    expect(back.state).toBe('my-state');
    expect(back.code).toBeTruthy();

    const created = await eb(application, 'POST', '/sessions', { code: back.code });
    expect(created.status).toBe(200);
    const session = created.body;
    expect(session.aspsp).toEqual({ name: 'Sandbank Sandbox', country: 'PL' });
    expect(session.accounts.map((a: { account_id: { iban: string } }) => a.account_id.iban)).toEqual([
      ibanOf(main),
      ibanOf(savings),
    ]);
    const uid = session.accounts[0].uid as string;
    expect(uid).not.toBe(main);

    const read = await eb(application, 'GET', `/sessions/${session.session_id}`);
    expect(read.body).toMatchObject({ status: 'AUTHORIZED', accounts: [uid, session.accounts[1].uid] });

    const details = await eb(application, 'GET', `/accounts/${uid}/details`);
    expect(details.body).toMatchObject({ uid, currency: 'PLN', name: 'Konto osobiste', account_id: { iban: ibanOf(main) } });

    // Booked: 10,000.00 − Σ(100…338) minor units; available also less the pending 12.34.
    const spent = Array.from({ length: 239 }, (_, n) => 100 + n).reduce((a, b) => a + b, 0);
    const booked = 10_000_00 - spent;
    const balances = await eb(application, 'GET', `/accounts/${uid}/balances`);
    const byType = Object.fromEntries(
      balances.body.balances.map((b: { balance_type: string; balance_amount: { amount: string } }) => [
        b.balance_type,
        b.balance_amount.amount,
      ]),
    );
    const decimal = (minor: number) => `${Math.trunc(minor / 100)}.${String(minor % 100).padStart(2, '0')}`;
    expect(byType).toEqual({ CLBD: decimal(booked), ITAV: decimal(booked - 12_34), CLAV: decimal(booked - 12_34) });

    // A year, 100 a page: 240 booked and 1 pending in three pages.
    const from = warsawDay(new Date(Date.now() - 364 * DAY));
    const later = warsawDay(new Date(Date.now() + 10 * DAY));
    const pages: { transactions: Record<string, unknown>[]; continuation_key?: string }[] = [];
    let key: string | undefined;
    do {
      // As apps do, every page repeats the period (date_to after today reads to today).
      const query = new URLSearchParams({ date_from: from, date_to: later, ...(key ? { continuation_key: key } : {}) });
      const page = await eb(application, 'GET', `/accounts/${uid}/transactions?${query}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
      pages.push(page.body);
      key = page.body.continuation_key;
    } while (key);
    expect(pages.map((page) => page.transactions.length)).toEqual([100, 100, 41]);
    const all = pages.flatMap((page) => page.transactions) as Loose[];
    expect(new Set(all.map((t) => t.entry_reference)).size).toBe(241);
    // Unsigned amounts with their direction: the signed sum is the booked balance.
    const signed = all
      .filter((t) => t.status === 'BOOK')
      .map((t) => (t.credit_debit_indicator === 'DBIT' ? -1 : 1) * Math.round(Number(t.transaction_amount.amount) * 100));
    expect(signed.reduce((a, b) => a + b, 0)).toBe(booked);
    expect(all.every((t) => !String(t.transaction_amount.amount).startsWith('-'))).toBe(true);
    expect(all[0]).toMatchObject({
      status: 'BOOK',
      credit_debit_indicator: 'CRDT',
      transaction_amount: { amount: '10000.00', currency: 'PLN' },
    });
    expect(all[1]).toMatchObject({
      credit_debit_indicator: 'DBIT',
      transaction_amount: { amount: '1.00' },
      creditor: { name: 'Żabka' },
    });
    expect(all.at(-1)).toMatchObject({ status: 'PDNG', credit_debit_indicator: 'DBIT', transaction_amount: { amount: '12.34' } });

    // transaction_status filters; an unknown period on a key is refused.
    const onlyPending = await eb(application, 'GET', `/accounts/${uid}/transactions?date_from=${from}&transaction_status=PDNG`);
    expect(onlyPending.body.transactions).toHaveLength(1);
    const bookedFirst = await eb(application, 'GET', `/accounts/${uid}/transactions?date_from=${from}&transaction_status=BOOK`);
    const nextKey = bookedFirst.body.continuation_key as string;
    const otherPeriod = await eb(
      application,
      'GET',
      `/accounts/${uid}/transactions?date_from=${warsawDay(new Date())}&continuation_key=${nextKey}`,
    );
    expect([otherPeriod.status, otherPeriod.body.error]).toEqual([422, 'WRONG_CONTINUATION_KEY']);

    // Closing the session ends the access.
    expect((await eb(application, 'DELETE', `/sessions/${session.session_id}`)).body).toEqual({ message: 'OK' });
    expect((await eb(application, 'GET', `/sessions/${session.session_id}`)).body.status).toBe('CLOSED');
    const after = await eb(application, 'GET', `/accounts/${uid}/balances`);
    expect([after.status, after.body.error]).toEqual([422, 'CLOSED_SESSION']);
  });

  it('waits for the owner’s decision at another ASPSP: approve picks accounts, refuse sends the error, once', async () => {
    const user = await app.createUser();
    const main = await openAccount(app, user, 'Główne');
    await openAccount(app, user, 'Drugie');
    const application = await register(user);

    const started = await auth(application, 'Sandbank', 'picked');
    expect(started.status).toBe(200);
    expect(started.body.url).toMatch(new RegExp(`/console/enablebanking/authorizations/${started.body.authorization_id}$`));
    const view = () =>
      app.call('GET', `/v1/enablebanking/authorizations/${started.body.authorization_id}`, { token: user.accessToken });
    expect((await view()).body.data).toMatchObject({
      application: { id: application.id, name: 'Budget app' },
      aspsp: { name: 'Sandbank', country: 'PL' },
      redirectUrl: REDIRECT,
      access: { balances: true, transactions: true },
      status: 'pending',
    });
    const stranger = await app.createUser();
    const hidden = await app.call('GET', `/v1/enablebanking/authorizations/${started.body.authorization_id}`, {
      token: stranger.accessToken,
    });
    expect(hidden.status).toBe(404);
    const approved = await decide(user, started.body.authorization_id, { approve: true, accountIds: [main] });
    expect(approved.status).toBe(200);
    expect(approved.body.data.status).toBe('approved');
    const back = redirected(approved.body.data.redirect);
    expect(back.state).toBe('picked');
    const session = await eb(application, 'POST', '/sessions', { code: back.code });
    expect(session.body.accounts.map((a: { account_id: { iban: string } }) => a.account_id.iban)).toEqual([ibanOf(main)]);
    expect((await view()).body.data.status).toBe('used');
    // Decided once; the code works once.
    const again = await decide(user, started.body.authorization_id, { approve: false });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    const reused = await eb(application, 'POST', '/sessions', { code: back.code });
    expect([reused.status, reused.body.error]).toEqual([422, 'WRONG_AUTHORIZATION_CODE']);

    const refused = await auth(application, 'Sandbank', 'no');
    const decision = await decide(user, refused.body.authorization_id, { approve: false });
    expect(redirected(decision.body.data.redirect)).toEqual({ code: null, state: 'no', error: 'access_denied' });
  });

  it('serves its OpenAPI document: every route, no Spectral errors, exactly what the face answers', {
    timeout: 120_000,
  }, async () => {
    const res = await app.call('GET', '/faces/enablebanking/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.servers[0].url).toMatch(/\/enablebanking$/);
    const described = Object.entries(res.body.paths as Record<string, Record<string, unknown>>).flatMap(([path, operations]) =>
      Object.keys(operations).map((method) => `${method} ${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(described.sort()).toEqual(Object.keys(routes).sort());
    expect(JSON.stringify(res.body)).not.toContain('#/$defs/');
    expect(await spectralErrors(res.body, 'extends: ["spectral:oas"]\n')).toEqual([]);

    // The route table's answer schemas are strict: each real answer parses with its route's.
    const user = await app.createUser();
    const accountId = await openAccount(app, user, 'Konto');
    await simulate(app, user, { accountId, amount: 250_00, description: 'Wpłata', merchant: 'ACME' });
    await simulate(app, user, { accountId, amount: -12_34, description: 'Kawa', merchant: 'Kawiarnia', status: 'pending' });
    const application = await register(user);
    const parsesAs = (route: string, body: unknown) =>
      expect(routes[route]?.response.safeParse(body).error?.issues ?? [], route).toEqual([]);
    parsesAs('get /application', (await eb(application, 'GET', '/application')).body);
    parsesAs('get /aspsps', (await eb(application, 'GET', '/aspsps')).body);
    const started = await auth(application);
    parsesAs('post /auth', started.body);
    const session = await eb(application, 'POST', '/sessions', { code: redirected(started.body.url).code });
    parsesAs('post /sessions', session.body);
    const uid = session.body.accounts[0].uid;
    parsesAs('get /sessions/:session_id', (await eb(application, 'GET', `/sessions/${session.body.session_id}`)).body);
    parsesAs('get /accounts/:account_id/details', (await eb(application, 'GET', `/accounts/${uid}/details`)).body);
    parsesAs('get /accounts/:account_id/balances', (await eb(application, 'GET', `/accounts/${uid}/balances`)).body);
    const transactions = await eb(application, 'GET', `/accounts/${uid}/transactions`);
    expect(transactions.body.transactions).toHaveLength(2);
    parsesAs('get /accounts/:account_id/transactions', transactions.body);
    parsesAs('delete /sessions/:session_id', (await eb(application, 'DELETE', `/sessions/${session.body.session_id}`)).body);
    const closed = await eb(application, 'GET', `/sessions/${session.body.session_id}`);
    parsesAs('get /sessions/:session_id', closed.body);
    expect(closed.body.closed).toBeDefined();
  });
});
