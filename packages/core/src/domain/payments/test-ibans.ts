/**
 * Test IBANs: outcomes on demand, like other sandboxes' magic values (docs/concepts/payments.md#test-ibans).
 * Each is a checksum-valid Polish IBAN on sort code 999 0002 5 (bank 999, assigned to no bank by the
 * NBP; Sandbank's own accounts use branch 0001), so none can reach a real account; any scheme may carry them.
 * Any other valid IBAN clears and settles.
 */
import { composeIBAN } from 'ibantools';

type OutcomeStage = 'validation' | 'session' | 'return';

export interface TestIbanOutcome {
  stage: OutcomeStage;
  code: string;
  message: string;
  /** `return` only: whole days after settlement that the money comes back. */
  days?: number;
}

/** ISO 20022 reason codes and the messages Sandbank gives them. */
const REASONS: Record<string, string> = {
  AC01: 'Incorrect account number',
  AC04: 'Closed account number',
  AC06: 'Blocked account',
  AG01: 'Transaction forbidden on this type of account',
  AM02: 'Amount exceeds the maximum allowed for the scheme',
  AM04: 'Insufficient funds',
  AM05: 'Duplication',
  BE06: 'Unknown end customer',
  MD07: 'End customer deceased',
  MS02: 'Not specified reason, customer generated',
  MS03: 'Not specified reason, agent generated',
};

const pl = (account: string) => {
  const iban = composeIBAN({ countryCode: 'PL', bban: `99900025${account}` });
  if (!iban) throw new Error(`test IBAN ${account} does not compose`);
  return iban;
};

/** By IBAN (electronic form): what happens to a payment sent there. */
export const TEST_IBANS: ReadonlyMap<string, TestIbanOutcome> = new Map<string, TestIbanOutcome>([
  [pl('0000000000000101'), { stage: 'validation', code: 'AC01', message: REASONS.AC01 as string }],
  [pl('0000000000000106'), { stage: 'validation', code: 'AC06', message: REASONS.AC06 as string }],
  [pl('0000000000000201'), { stage: 'session', code: 'AC04', message: REASONS.AC04 as string }],
  [pl('0000000000000202'), { stage: 'session', code: 'BE06', message: REASONS.BE06 as string }],
  [pl('0000000000000203'), { stage: 'session', code: 'MS03', message: REASONS.MS03 as string }],
  [pl('0000000000000301'), { stage: 'return', code: 'AC04', message: REASONS.AC04 as string, days: 1 }],
  [pl('0000000000000302'), { stage: 'return', code: 'MD07', message: REASONS.MD07 as string, days: 3 }],
]);

export const testIbanOutcome = (iban: string) => TEST_IBANS.get(iban);

/** The message of a reason code; codes Sandbank does not describe get a generic one. */
export const reasonMessage = (code: string) => REASONS[code] ?? 'Rejected (see the ISO 20022 external code list)';
