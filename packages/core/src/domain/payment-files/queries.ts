/**
 * The SQL of payment files (docs/guides/payment-files.md): the file's record, each payment's place
 * in it, and the account's payment legs for camt.054. One named function per statement.
 */
import type { EntityManager } from '@sandbank/db';

export interface PaymentFileRow {
  id: string;
  message_id: string;
  message_name_id: 'pain.001.001.09' | 'pain.001.001.03';
  file_created_at: string;
  initiating_party_name: string | null;
  number_of_transactions: number;
  /** The file's payment-information blocks in order, with how many transactions each holds. */
  blocks: { paymentInformationId: string; transactions: number; instructionIds: (string | null)[] }[];
  created_at: Date | string;
}

/** The file's record; false when the user already has a file with this MsgId (nothing written). */
export async function insertPaymentFile(
  em: EntityManager,
  f: Omit<PaymentFileRow, 'created_at'> & { userId: string; controlSum: string | null; at: Date },
): Promise<boolean> {
  const [row] = await em.execute<{ n: string }[]>(
    `with i as (insert into payment_files (id, user_id, message_id, message_name_id, file_created_at, initiating_party_name,
       number_of_transactions, control_sum, blocks, created_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?::jsonb, ?::timestamptz)
       on conflict (user_id, message_id) do nothing returning 1) select count(*) as n from i`,
    [
      f.id,
      f.userId,
      f.message_id,
      f.message_name_id,
      f.file_created_at,
      f.initiating_party_name,
      f.number_of_transactions,
      f.controlSum,
      JSON.stringify(f.blocks),
      f.at.toISOString(),
    ],
  );
  return Number(row?.n ?? 0) === 1;
}

/** Puts the payment at `position` (0-based, the file's order) of the file. */
export async function linkPaymentToFile(
  em: EntityManager,
  { paymentId, fileId, position }: { paymentId: string; fileId: string; position: number },
): Promise<void> {
  await em.execute('update payments set payment_file_id = ?, payment_file_position = ? where id = ?', [
    fileId,
    position,
    paymentId,
  ]);
}

/** The user's file, or undefined (another user's is not found either). */
export async function selectPaymentFile(em: EntityManager, userId: string, fileId: string): Promise<PaymentFileRow | undefined> {
  const [row] = await em.execute<PaymentFileRow[]>(
    `select id, message_id, message_name_id, file_created_at, initiating_party_name, number_of_transactions, blocks, created_at
       from payment_files where id = ? and user_id = ?`,
    [fileId, userId],
  );
  return row;
}

export interface FilePaymentRow {
  id: string;
  status: string;
  reason_code: string | null;
  reason_message: string | null;
  end_to_end_id: string;
  amount: string | number;
  currency: string;
  accepted_at: Date | string | null;
}

/** The file's payments in the file's order. */
export function selectFilePayments(em: EntityManager, fileId: string): Promise<FilePaymentRow[]> {
  return em.execute<FilePaymentRow[]>(
    `select id, status, reason_code, reason_message, end_to_end_id, amount, currency, accepted_at
       from payments where payment_file_id = ? order by payment_file_position`,
    [fileId],
  );
}

/** The user's accounts (id and currency): the debtor IBANs a file may name are theirs. */
export function selectUserAccounts(em: EntityManager, userId: string): Promise<{ id: string; name: string; currency: string }[]> {
  return em.execute('select id, name, currency from accounts where user_id = ?', [userId]);
}

export interface LegRow {
  id: string;
  amount: string | number;
  status: 'pending' | 'posted';
  date: Date | string;
  posted_at: Date | string | null;
  description: string;
  end_to_end_id: string | null;
  counterparty_name: string | null;
  counterparty_iban: string | null;
  reversal: boolean;
}

/**
 * The account's payment legs (sent, received, transfers and returns: every transaction of a payment,
 * or carrying a counterparty) dated in [from, to), not voided, oldest first; at most `limit`.
 */
export function selectPaymentLegs(
  em: EntityManager,
  p: { accountId: string; from: Date; to: Date; limit: number },
): Promise<LegRow[]> {
  return em.execute<LegRow[]>(
    `select id, amount, status, date, posted_at, description, raw->>'endToEndId' as end_to_end_id,
            raw->'counterparty'->>'name' as counterparty_name, raw->'counterparty'->>'iban' as counterparty_iban,
            reversal_of is not null as reversal
       from transactions
      where account_id = ? and date >= ?::timestamptz and date < ?::timestamptz and status <> 'voided'
        and (payment_id is not null or raw->'counterparty' is not null)
      order by date, id limit ?`,
    [p.accountId, p.from.toISOString(), p.to.toISOString(), p.limit],
  );
}
