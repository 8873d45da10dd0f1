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
  'scenarios.applyScenario': { scenario: { version: 1, seed: 1, accounts: [] } },
};
