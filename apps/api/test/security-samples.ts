/**
 * A valid request body per procedure, for the security walk (security-coverage.test.ts): the
 * stranger's call must fail on ownership (404), not on validation (400). Procedures without a
 * body, or whose body has no required field, need no entry.
 */
export const authSampleInputs: Record<string, unknown> = {
  'accounts.closeAccount': { name: 'Any name', password: 'correct-horse-battery' },
  'schedules.createSchedule': { amount: 100, description: 'Pocket money', rrule: 'FREQ=WEEKLY' },
  'clock.advanceClock': { by: 'P1D' },
  'sandbox.resetSandbox': { confirm: 'RESET' },
  'gocardless.decideRequisition': { approve: false },
  'gocardless.advanceRequisition': { step: 'GC' },
  'enablebanking.decideAuthorization': { approve: false },
  'enablebanking.decidePayment': { approve: false },
  'enablebanking.createApplication': { name: 'Budget app', redirectUrls: ['https://app.example/cb'] },
  'scenarios.applyScenario': { scenario: { version: 1, seed: 1, accounts: [] } },
  'worlds.takeSnapshot': { name: 'security' },
  'worlds.restoreSnapshot': { snapshotId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d' },
  'worlds.createWorld': { snapshotId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d' },
  'plaid.fireItemWebhook': { code: 'DEFAULT_UPDATE' },
  'simulations.simulatePaymentRejection': { reasonCode: 'AC04' },
  'simulations.simulatePaymentReturn': { reasonCode: 'AC04' },
  'simulations.simulateIncomingPayment': {
    accountId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d',
    amount: 1,
    debtorName: 'Jan',
    debtorIban: 'PL61109010140000071219812874',
  },
  'payments.createPayment': {
    fromAccountId: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d',
    to: { iban: 'PL61109010140000071219812874', name: 'Jan' },
    amount: 1,
  },
};
