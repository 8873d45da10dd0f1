/**
 * How the console reads a Payment (docs/concepts/payments.md): its ISO 20022 status story as steps,
 * the reason codes the simulations take, and the schemes. The steps come from the payment's own
 * fields (created, accepted, settled, rejected with its reason, cancelled, returned), so the timeline
 * is what the API says now; a step the payment has not reached yet is listed as next.
 */
import type { Payment, PaymentStatus } from './types.ts';

/** ISO 20022 reason codes Sandbank names (ExternalStatusReason1Code / ExternalReturnReason1Code). */
export const REASON_CODES: readonly { code: string; message: string }[] = [
  { code: 'AC01', message: 'Incorrect account number' },
  { code: 'AC04', message: 'Closed account number' },
  { code: 'AC06', message: 'Blocked account' },
  { code: 'AG01', message: 'Transaction forbidden on this type of account' },
  { code: 'AM04', message: 'Insufficient funds' },
  { code: 'AM05', message: 'Duplication' },
  { code: 'BE06', message: 'Unknown end customer' },
  { code: 'MD07', message: 'End customer deceased' },
  { code: 'MS02', message: 'Not specified reason, customer generated' },
  { code: 'MS03', message: 'Not specified reason, agent generated' },
];

export const STATUS_LABELS: Record<PaymentStatus, string> = {
  RCVD: 'Received',
  ACTC: 'Accepted, waiting for its session',
  ACSP: 'In a clearing session',
  ACSC: 'Settled',
  RJCT: 'Rejected',
  CANC: 'Cancelled',
};

export const SCHEME_LABELS: Record<Payment['scheme'], string> = {
  internal: 'Own accounts (instant)',
  elixir: 'Elixir (PLN, sessions)',
  express_elixir: 'Express Elixir (PLN, instant)',
  sepa: 'SEPA (EUR, next TARGET day)',
  sepa_instant: 'SEPA Instant (EUR, instant)',
};

/** The schemes that clear in sessions (the calendar's); the others settle within the request. */
const SESSION_SCHEMES: readonly Payment['scheme'][] = ['elixir', 'sepa'];

export interface PaymentStep {
  /** A status code, or RETURNED for a settled payment that came back. */
  code: PaymentStatus | 'RETURNED';
  label: string;
  /** done: reached (at `at` when the API keeps the time); next: still ahead. */
  state: 'done' | 'next';
  at?: string | undefined;
  reason?: { code: string; message: string } | undefined;
}

const step = (code: PaymentStep['code'], state: PaymentStep['state'], at?: string | null): PaymentStep => ({
  code,
  label: code === 'RETURNED' ? 'Returned' : STATUS_LABELS[code],
  state,
  at: at ?? undefined,
});

/** RCVD → ACTC → ACSP → ACSC (→ returned), or RJCT with its reason, or CANC; steps ahead marked next. */
export function stepsOf(payment: Payment): PaymentStep[] {
  const steps: PaymentStep[] = [step('RCVD', 'done', payment.createdAt)];
  const sessions = SESSION_SCHEMES.includes(payment.scheme);
  const accepted = payment.acceptedAt !== null;
  if (accepted) steps.push(step('ACTC', 'done', payment.acceptedAt));
  const { status } = payment;
  if (status === 'RJCT') {
    return [...steps, { ...step('RJCT', 'done'), reason: payment.statusReason ?? undefined }];
  }
  if (status === 'CANC') return [...steps, step('CANC', 'done')];
  if (!accepted) steps.push(step('ACTC', 'next'));
  if (sessions) steps.push(step('ACSP', status === 'ACSP' || status === 'ACSC' ? 'done' : 'next'));
  steps.push(step('ACSC', status === 'ACSC' ? 'done' : 'next', payment.settledAt));
  if (payment.returned) steps.push({ ...step('RETURNED', 'done', payment.returned.at), reason: payment.returned.reason });
  return steps;
}

/** What can be done to a payment now: cancel before its session, reject while accepted or clearing, return once settled. */
export function actionsOf(payment: Payment): { cancel: boolean; reject: boolean; return: boolean } {
  const toIban = 'iban' in payment.to;
  return {
    cancel: payment.status === 'ACTC',
    reject: payment.status === 'ACTC' || payment.status === 'ACSP',
    return: payment.status === 'ACSC' && toIban && payment.returned === null,
  };
}
