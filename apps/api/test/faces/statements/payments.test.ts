/**
 * Payments in statements (docs/concepts/payments.md): camt.053 names a payment's other side with its
 * IBAN (`RltdPties` Cdtr/CdtrAcct of money out, Dbtr/DbtrAcct of money in) and carries the
 * payment's `EndToEndId`; the parties read back by npm `iso20022.js`, a parser Sandbank did not write.
 */
import { openAccount, simulate } from '@sandbank/testing/fixtures';
import { CashManagementEndOfDayReport } from 'iso20022.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../../helpers.ts';
import { download } from './statement-world.ts';

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app.close());

it('camt.053 shows the creditor and debtor of payments with their IBANs and EndToEndIds', async () => {
  const user = await app.createUser();
  const accountId = await openAccount(app, user, 'Konto');
  expect((await simulate(app, user, { accountId, amount: 1_000_00 })).status).toBe(201);
  const out = await app.call('POST', '/v1/payments', {
    token: user.accessToken,
    body: {
      fromAccountId: accountId,
      to: { iban: 'PL61109010140000071219812874', name: 'Jan Kowalski' },
      amount: 120_00,
      scheme: 'express_elixir',
      description: 'Czynsz',
      endToEndId: 'E2E-OUT-1',
    },
  });
  expect(out.body.data?.status, JSON.stringify(out.body)).toBe('ACSC');
  const incoming = await app.call('POST', '/v1/simulations/incoming-payment', {
    token: user.accessToken,
    body: {
      accountId,
      amount: 50_00,
      scheme: 'express_elixir',
      debtorName: 'ACME sp. z o.o.',
      debtorIban: 'PL27114020040000300201355387',
      description: 'Faktura 42',
      endToEndId: 'E2E-IN-1',
    },
  });
  expect(incoming.status).toBe(201);
  const file = await download(app, `/v1/accounts/${accountId}/statement?format=camt.053`, user.accessToken);
  expect(file.status, file.text).toBe(200);
  const [statement] = CashManagementEndOfDayReport.fromXML(file.text).statements;
  const byInfo = (start: string) => statement?.entries.find((entry) => entry.additionalInformation?.startsWith(start));
  expect(byInfo('Czynsz')?.transactions[0]).toMatchObject({
    creditor: { name: 'Jan Kowalski', account: { iban: 'PL61109010140000071219812874' } },
  });
  expect(byInfo('Faktura 42')?.transactions[0]).toMatchObject({
    debtor: { name: 'ACME sp. z o.o.', account: { iban: 'PL27114020040000300201355387' } },
  });
  // iso20022.js does not read EndToEndId: each entry's own Refs carry the payment's.
  for (const id of ['E2E-OUT-1', 'E2E-IN-1']) expect(file.text).toContain(`<EndToEndId>${id}</EndToEndId>`);
});
