/**
 * Enable Banking payment initiation (docs/faces/enablebanking.md#payments) over a real HTTP server, as an
 * app signs its calls: POST /payments → authorisation (the sandbox ASPSP at once; `Sandbank` through the
 * owner's decision, as the consent page sends it) → GET /payments/:id following the section-19 payment
 * the request became (ACTC, then ACSC after the world's clock passes its session; RJCT with its reason
 * after a simulated rejection; CNCL when the owner cancels). Another application's or user's payment is
 * not found; a refused body creates nothing. Every answer is validated against Enable Banking's
 * published document (face-answers.ts fails the file otherwise).
 */
import { ibanOf } from '@sandbank/core';
import { simulate } from '@sandbank/testing/fixtures';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp, type TestUser } from '../../helpers.ts';
import { type App, enablebankingCalls, REDIRECT } from './calls.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

const { register, eb, redirected, advance } = enablebankingCalls(() => app);

const CREDITOR_IBAN = 'DE89370400440532013000';
const PL_CREDITOR_IBAN = 'PL61109010140000071219812874';

async function fundedAccount(user: TestUser, name: string, currency: string, amount: number): Promise<string> {
  const res = await app.call('POST', '/v1/accounts', { token: user.accessToken, body: { name, currency } });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const id: string = res.body.data.id;
  if (amount > 0) expect((await simulate(app, user, { accountId: id, amount, currency })).status).toBe(201);
  return id;
}

interface PaymentOptions {
  aspsp?: string;
  type?: string;
  currency?: string;
  amount?: string;
  iban?: string;
  debtorIban?: string;
  state?: string;
}

const paymentBody = (o: PaymentOptions = {}) => ({
  payment_type: o.type ?? 'SEPA',
  payment_request: {
    ...(o.debtorIban ? { debtor_account: { identification: o.debtorIban, scheme_name: 'IBAN' } } : {}),
    credit_transfer_transaction: [
      {
        instructed_amount: { currency: o.currency ?? 'EUR', amount: o.amount ?? '12.34' },
        beneficiary: {
          creditor: { name: 'Anna Schmidt' },
          creditor_account: { identification: o.iban ?? CREDITOR_IBAN, scheme_name: 'IBAN' },
        },
        remittance_information: ['Invoice 42'],
      },
    ],
  },
  aspsp: { name: o.aspsp ?? 'Sandbank Sandbox', country: 'PL' },
  state: o.state ?? 'pay-state',
  redirect_url: REDIRECT,
  psu_type: 'personal',
});

const pay = (application: App, o: PaymentOptions = {}) => eb(application, 'POST', '/payments', paymentBody(o));
const status = async (application: App, id: string) => (await eb(application, 'GET', `/payments/${id}`)).body;

/** The section-19 payment an Enable Banking payment became, through the owner's own API. */
async function corePayment(user: TestUser, ebPaymentId: string) {
  const res = await app.call('GET', `/v1/enablebanking/payments/${ebPaymentId}`, { token: user.accessToken });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data;
}

const counts = async () =>
  (
    await app.db.query(
      'select (select count(*) from enablebanking_payments)::int as requests, (select count(*) from payments)::int as payments',
    )
  ).rows[0];

describe('Enable Banking payments', () => {
  it('pays through the sandbox ASPSP at once, as a SEPA payment that settles when the clock passes its session', async () => {
    const user = await app.createUser();
    const eur = await fundedAccount(user, 'Euro', 'EUR', 1_000_00);
    const application = await register(user);

    const aspsps = await eb(application, 'GET', '/aspsps?country=PL&service=PIS&payment_type=SEPA');
    // Every ASPSP serves PIS: Sandbank's two, then the banks with personalities.
    expect(aspsps.body.aspsps.map((a: { name: string }) => a.name).slice(0, 2)).toEqual(['Sandbank Sandbox', 'Sandbank']);
    expect(aspsps.body.aspsps.map((a: { name: string }) => a.name)).toContain('mBank');
    expect((await eb(application, 'GET', '/aspsps?payment_type=BULK_SEPA')).body.aspsps).toEqual([]);
    expect((await eb(application, 'GET', '/application')).body.services).toEqual(['AIS', 'PIS']);

    const created = await pay(application);
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    expect(created.body.status).toBe('ACTC');
    expect(redirected(created.body.url)).toEqual({ code: null, state: 'pay-state', error: null });

    const accepted = await status(application, created.body.payment_id);
    expect(accepted).toMatchObject({
      payment_id: created.body.payment_id,
      status: 'ACTC',
      final_status: false,
      payment_type: 'SEPA',
      aspsp: { name: 'Sandbank Sandbox', country: 'PL' },
      payment_details: {
        debtor_account: { identification: ibanOf(eur), scheme_name: 'IBAN' },
        credit_transfer_transaction: [
          {
            instructed_amount: { currency: 'EUR', amount: '12.34' },
            beneficiary: { creditor: { name: 'Anna Schmidt' }, creditor_account: { identification: CREDITOR_IBAN } },
            transaction_status: 'ACTC',
          },
        ],
      },
    });
    // A real section-19 payment: minor units, the creditor, the scheme, the hold on the account.
    const executed = await corePayment(user, created.body.payment_id);
    expect(executed).toMatchObject({ status: 'authorised', debtorAccountId: eur });
    expect(executed.payment).toMatchObject({
      fromAccountId: eur,
      to: { iban: CREDITOR_IBAN, name: 'Anna Schmidt' },
      amount: 12_34,
      currency: 'EUR',
      scheme: 'sepa',
      status: 'ACTC',
      description: 'Invoice 42',
    });
    const account = await app.call('GET', `/v1/accounts/${eur}`, { token: user.accessToken });
    expect(account.body.data).toMatchObject({ balance: 1_000_00, availableBalance: 1_000_00 - 12_34 });

    await advance(user, 'P5D');
    const settled = await status(application, created.body.payment_id);
    expect(settled).toMatchObject({ status: 'ACSC', final_status: true });
    expect((await corePayment(user, created.body.payment_id)).payment.status).toBe('ACSC');

    // Finished, so the app may delete it; then it is gone for the app.
    expect((await eb(application, 'DELETE', `/payments/${created.body.payment_id}`)).body).toEqual({ message: 'OK' });
    const gone = await eb(application, 'GET', `/payments/${created.body.payment_id}`);
    expect([gone.status, gone.body.error]).toEqual([404, 'PAYMENT_NOT_FOUND']);
  });

  it('rejects at once for insufficient funds (RJCT AM04, final), nothing held', async () => {
    const user = await app.createUser();
    const eur = await fundedAccount(user, 'Euro', 'EUR', 10_00);
    const application = await register(user);
    const created = await pay(application, { amount: '10.01' });
    expect(created.body.status).toBe('RJCT');
    expect(await status(application, created.body.payment_id)).toMatchObject({
      status: 'RJCT',
      final_status: true,
      status_reason_information: { status_reason_code: 'AM04' },
    });
    const account = await app.call('GET', `/v1/accounts/${eur}`, { token: user.accessToken });
    expect(account.body.data.availableBalance).toBe(10_00);
  });

  it('waits for the owner at Sandbank: the consent page’s decision pays from the account picked; a rejection shows', async () => {
    const alice = await app.createUser();
    const bob = await app.createUser();
    await fundedAccount(alice, 'Main', 'PLN', 500_00);
    const second = await fundedAccount(alice, 'Second', 'PLN', 300_00);
    const application = await register(alice);

    const created = await pay(application, {
      aspsp: 'Sandbank',
      type: 'DOMESTIC',
      currency: 'PLN',
      amount: '100',
      iban: PL_CREDITOR_IBAN,
      state: 'consent-state',
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id: string = created.body.payment_id;
    expect(created.body).toMatchObject({ status: 'PDNG' });
    expect(created.body.url).toMatch(new RegExp(`/console/enablebanking/payments/${id}$`));
    expect(await status(application, id)).toMatchObject({ status: 'PDNG', final_status: false });

    // What the consent page shows.
    expect(await corePayment(alice, id)).toMatchObject({
      application: { id: application.id, name: 'Budget app' },
      aspsp: { name: 'Sandbank', country: 'PL' },
      paymentType: 'DOMESTIC',
      amount: 100_00,
      currency: 'PLN',
      creditor: { name: 'Anna Schmidt', iban: PL_CREDITOR_IBAN },
      remittance: 'Invoice 42',
      debtorAccountId: null,
      status: 'pending',
      payment: null,
    });

    const decide = (user: TestUser, body: Record<string, unknown>) =>
      app.call('POST', `/v1/enablebanking/payments/${id}/decision`, { token: user.accessToken, body });
    const bobDecides = await decide(bob, { approve: true });
    expect([bobDecides.status, bobDecides.body.code]).toEqual([404, 'NOT_FOUND']);
    const bobReads = await app.call('GET', `/v1/enablebanking/payments/${id}`, { token: bob.accessToken });
    expect(bobReads.status).toBe(404);

    const approved = await decide(alice, { approve: true, accountId: second });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(redirected(approved.body.data.redirect)).toEqual({ code: null, state: 'consent-state', error: null });
    expect(approved.body.data.payment.payment).toMatchObject({ fromAccountId: second, scheme: 'elixir', status: 'ACTC' });
    const again = await decide(alice, { approve: false });
    expect([again.status, again.body.code]).toEqual([409, 'CONFLICT']);
    expect(await status(application, id)).toMatchObject({
      status: 'ACTC',
      payment_details: { debtor_account: { identification: ibanOf(second) } },
    });

    // Still executing: the app cannot delete it.
    const early = await eb(application, 'DELETE', `/payments/${id}`);
    expect([early.status, early.body.error]).toEqual([422, 'PAYMENT_NOT_FINALIZED']);

    const paymentId: string = approved.body.data.payment.payment.id;
    const rejected = await app.call('POST', `/v1/simulations/payments/${paymentId}/reject`, {
      token: alice.accessToken,
      body: { reasonCode: 'AC04' },
    });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await status(application, id)).toMatchObject({
      status: 'RJCT',
      final_status: true,
      status_reason_information: { status_reason_code: 'AC04' },
    });
  });

  it('cancels when the owner cancels, and keeps a payment to the application that made it (BOLA)', async () => {
    const alice = await app.createUser();
    const bob = await app.createUser();
    await fundedAccount(alice, 'Main', 'PLN', 500_00);
    await fundedAccount(bob, 'Main', 'PLN', 500_00);
    const aliceApp = await register(alice);
    const aliceOtherApp = await register(alice);
    const bobApp = await register(bob);

    const created = await pay(aliceApp, {
      aspsp: 'Sandbank',
      type: 'DOMESTIC',
      currency: 'PLN',
      amount: '5.00',
      iban: PL_CREDITOR_IBAN,
    });
    const id: string = created.body.payment_id;
    for (const stranger of [aliceOtherApp, bobApp]) {
      const read = await eb(stranger, 'GET', `/payments/${id}`);
      expect([read.status, read.body.error]).toEqual([404, 'PAYMENT_NOT_FOUND']);
      const removed = await eb(stranger, 'DELETE', `/payments/${id}`);
      expect([removed.status, removed.body.error]).toEqual([404, 'PAYMENT_NOT_FOUND']);
    }
    const notUuid = await eb(aliceApp, 'GET', '/payments/not-a-uuid');
    expect([notUuid.status, notUuid.body.error]).toEqual([404, 'PAYMENT_NOT_FOUND']);

    const cancelled = await app.call('POST', `/v1/enablebanking/payments/${id}/decision`, {
      token: alice.accessToken,
      body: { approve: false },
    });
    expect(cancelled.status).toBe(200);
    expect(redirected(cancelled.body.data.redirect)).toMatchObject({ error: 'access_denied', state: 'pay-state' });
    expect(await status(aliceApp, id)).toMatchObject({ status: 'CNCL', final_status: true });
    expect((await corePayment(alice, id)).payment).toBeNull();
  });

  it('refuses a wrong body in Enable Banking’s shape and creates nothing', async () => {
    const user = await app.createUser();
    const eur = await fundedAccount(user, 'Euro', 'EUR', 100_00);
    await fundedAccount(user, 'Złoty', 'PLN', 100_00);
    const application = await register(user);
    const before = await counts();
    const wrong: [string, unknown, string][] = [
      ['no payment_request', { ...paymentBody(), payment_request: undefined }, 'WRONG_REQUEST_PARAMETERS'],
      ['too many places (EUR)', paymentBody({ amount: '12.345' }), 'WRONG_REQUEST_PARAMETERS'],
      ['a fraction of a yen', paymentBody({ currency: 'JPY', amount: '1.5' }), 'WRONG_REQUEST_PARAMETERS'],
      ['yen over SEPA', paymentBody({ currency: 'JPY', amount: '150' }), 'WRONG_REQUEST_PARAMETERS'],
      ['a ten-thousandth of a dinar', paymentBody({ currency: 'KWD', amount: '0.0001' }), 'WRONG_REQUEST_PARAMETERS'],
      ['dinars over SEPA', paymentBody({ currency: 'KWD', amount: '0.005' }), 'WRONG_REQUEST_PARAMETERS'],
      ['zero', paymentBody({ amount: '0.00' }), 'WRONG_REQUEST_PARAMETERS'],
      [
        'a number, not a string',
        {
          ...paymentBody(),
          payment_request: { credit_transfer_transaction: [{ instructed_amount: { currency: 'EUR', amount: 12.34 } }] },
        },
        'WRONG_REQUEST_PARAMETERS',
      ],
      ['a wrong IBAN checksum', paymentBody({ iban: 'DE89370400440532013001' }), 'WRONG_REQUEST_PARAMETERS'],
      ['bulk', paymentBody({ type: 'BULK_SEPA' }), 'WRONG_REQUEST_PARAMETERS'],
      ['an unknown type', paymentBody({ type: 'CHEQUE' }), 'WRONG_REQUEST_PARAMETERS'],
      ['PLN over SEPA', paymentBody({ currency: 'PLN', amount: '1.00' }), 'WRONG_REQUEST_PARAMETERS'],
      [
        'a debtor account not the user’s',
        paymentBody({ debtorIban: ibanOf('018f0000-0000-7000-8000-000000000000') }),
        'WRONG_REQUEST_PARAMETERS',
      ],
      [
        'a debtor account in another currency',
        paymentBody({ currency: 'PLN', type: 'DOMESTIC', iban: PL_CREDITOR_IBAN, debtorIban: ibanOf(eur) }),
        'WRONG_REQUEST_PARAMETERS',
      ],
      ['an unknown ASPSP', paymentBody({ aspsp: 'Nordea' }), 'WRONG_ASPSP_PROVIDED'],
      ['another redirect', { ...paymentBody(), redirect_url: 'https://evil.example/cb' }, 'REDIRECT_URI_NOT_ALLOWED'],
    ];
    for (const [what, body, error] of wrong) {
      const res = await eb(application, 'POST', '/payments', body);
      expect([res.status, res.body.error], what).toEqual([422, error]);
    }
    const notAnObject = await eb(application, 'POST', '/payments', 'not an object');
    expect([notAnObject.status, notAnObject.body.error]).toEqual([422, 'WRONG_REQUEST_PARAMETERS']);
    const unsigned = await app.call('POST', '/enablebanking/payments', { body: paymentBody() });
    expect([unsigned.status, unsigned.body.error]).toEqual([401, 'AUTHORIZATION_NOT_PROVIDED']);
    expect(await counts()).toEqual(before);
  });
});
