/** The Payment mapper: a `payments` row (with its transactions' ids) as the API shows it. */
import type { Currency, Payment, PaymentScheme, PaymentStatus } from '@sandbank/schemas';
import type { PaymentRow } from '../domain/payments/queries.ts';
import { isoTimestamp } from '../lib/timestamps.ts';

const isoOrNull = (value: Date | string | null) => (value === null ? null : isoTimestamp(value));

export function toPayment(row: PaymentRow): Payment {
  return {
    id: row.id,
    fromAccountId: row.from_account_id,
    to:
      row.to_account_id !== null
        ? { accountId: row.to_account_id }
        : { iban: row.counterparty_iban as string, name: row.counterparty_name as string },
    amount: Number(row.amount),
    currency: row.currency as Currency,
    scheme: row.scheme as PaymentScheme,
    status: row.status as PaymentStatus,
    statusReason: row.reason_code === null ? null : { code: row.reason_code, message: row.reason_message ?? '' },
    endToEndId: row.end_to_end_id,
    description: row.description,
    requestedExecutionDate: row.requested_execution_date,
    acceptedAt: isoOrNull(row.accepted_at),
    settledAt: isoOrNull(row.settled_at),
    returned:
      row.returned_at === null
        ? null
        : {
            reason: { code: row.return_reason_code ?? '', message: row.return_reason_message ?? '' },
            at: isoTimestamp(row.returned_at),
          },
    transactionIds: row.transaction_ids,
    createdAt: isoTimestamp(row.created_at),
  };
}
