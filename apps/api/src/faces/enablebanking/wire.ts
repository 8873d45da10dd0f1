/**
 * The face's wire schemas in Enable Banking's own field names (its published document's
 * `components.schemas`): the requests it parses and the answers it gives, one schema per wire object.
 * Requests are read the way Enable Banking's API reads them: unknown fields are ignored. Answers are
 * strict: every field the face sends is described (the face's own OpenAPI document is built from them).
 */
import { z } from 'zod';

const Day = z.iso.date();
const Uuid = z.uuid();

const AspspSchema = z.object({ name: z.string().min(1).max(200), country: z.string().regex(/^[A-Z]{2}$/) }).meta({ id: 'ASPSP' });
const PsuType = z.enum(['personal', 'business']);

const AccessSchema = z
  .object({
    valid_until: z.iso.datetime({ offset: true }),
    balances: z.boolean().optional(),
    transactions: z.boolean().optional(),
  })
  .meta({ id: 'Access' });

export const StartAuthorizationRequest = z
  .object({
    access: AccessSchema,
    aspsp: AspspSchema,
    state: z.string().max(1024),
    redirect_url: z.url().max(2048),
    psu_type: PsuType.default('personal'),
    auth_method: z.string().max(200).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2}$/)
      .optional(),
    psu_id: z.string().max(200).optional(),
  })
  .meta({ id: 'StartAuthorizationRequest' });

export const AuthorizeSessionRequest = z.object({ code: z.string().min(1).max(256) }).meta({ id: 'AuthorizeSessionRequest' });

export const AspspsQuery = z.object({
  country: z
    .string()
    .regex(/^[A-Z]{2}$/)
    .optional(),
  psu_type: PsuType.optional(),
  service: z.enum(['AIS', 'PIS']).optional(),
  payment_type: z.string().max(50).optional(),
});

const TRANSACTION_STATUSES = ['BOOK', 'CNCL', 'HOLD', 'OTHR', 'PDNG', 'RJCT', 'SCHD'] as const;

export const TransactionsQuery = z.object({
  date_from: Day.optional(),
  date_to: Day.optional(),
  continuation_key: z.string().max(512).optional(),
  transaction_status: z.enum(TRANSACTION_STATUSES).optional(),
  strategy: z.enum(['default', 'longest']).optional(),
});

const AmountType = z.strictObject({ currency: z.string(), amount: z.string() }).meta({ id: 'AmountType' });
const GenericIdentification = z
  .object({ identification: z.string(), scheme_name: z.string() })
  .meta({ id: 'GenericIdentification' });

export const GetApplicationResponse = z
  .object({
    name: z.string(),
    description: z.string().optional(),
    kid: Uuid,
    environment: z.enum(['SANDBOX', 'PRODUCTION']),
    redirect_urls: z.array(z.string()),
    active: z.boolean(),
    countries: z.array(z.string()),
    services: z.array(z.enum(['AIS', 'PIS'])),
  })
  .meta({ id: 'GetApplicationResponse' });

export const GetAspspsResponse = z
  .object({
    aspsps: z.array(
      z
        .object({
          name: z.string(),
          country: z.string(),
          logo: z.string(),
          psu_types: z.array(PsuType),
          auth_methods: z.array(
            z.strictObject({ name: z.string(), psu_type: PsuType, approach: z.literal('REDIRECT'), hidden_method: z.boolean() }),
          ),
          maximum_consent_validity: z.number().int(),
          beta: z.boolean(),
          bic: z.string(),
          required_psu_headers: z.array(z.string()),
        })
        .meta({ id: 'ASPSPData' }),
    ),
  })
  .meta({ id: 'GetAspspsResponse' });

export const StartAuthorizationResponse = z
  .object({ url: z.url(), authorization_id: Uuid, psu_id_hash: z.string() })
  .meta({ id: 'StartAuthorizationResponse' });

export const AccountResource = z
  .object({
    account_id: z.strictObject({ iban: z.string() }),
    all_account_ids: z.array(GenericIdentification),
    account_servicer: z.strictObject({ bic_fi: z.string(), name: z.string() }),
    name: z.string(),
    usage: z.enum(['PRIV', 'ORGA']),
    cash_account_type: z.literal('CACC'),
    product: z.string(),
    currency: z.string(),
    psu_status: z.string(),
    uid: Uuid,
    identification_hash: z.string(),
    identification_hashes: z.array(z.string()),
  })
  .meta({ id: 'AccountResource' });

export const AuthorizeSessionResponse = z
  .object({
    session_id: Uuid,
    accounts: z.array(AccountResource),
    aspsp: AspspSchema,
    psu_type: PsuType,
    access: AccessSchema,
  })
  .meta({ id: 'AuthorizeSessionResponse' });

export const GetSessionResponse = z
  .object({
    status: z.enum(['AUTHORIZED', 'EXPIRED', 'CLOSED']),
    accounts: z.array(Uuid),
    accounts_data: z.array(
      z
        .object({ uid: Uuid, identification_hash: z.string(), identification_hashes: z.array(z.string()) })
        .meta({ id: 'SessionAccount' }),
    ),
    aspsp: AspspSchema,
    psu_type: PsuType,
    psu_id_hash: z.string(),
    access: AccessSchema,
    created: z.iso.datetime(),
    authorized: z.iso.datetime(),
    closed: z.iso.datetime().optional(),
  })
  .meta({ id: 'GetSessionResponse' });

export const SuccessResponse = z.strictObject({ message: z.string() }).meta({ id: 'SuccessResponse' });

export const HalBalances = z
  .object({
    balances: z.array(
      z
        .object({
          name: z.string(),
          balance_amount: AmountType,
          balance_type: z.enum(['CLBD', 'ITAV', 'CLAV']),
          reference_date: Day,
          last_change_date_time: z.iso.datetime(),
        })
        .meta({ id: 'BalanceResource' }),
    ),
  })
  .meta({ id: 'HalBalances' });

export const TransactionSchema = z
  .object({
    // Optional in the document; a bank whose pending entries have no id sends neither (personalities.md).
    entry_reference: z.string().optional(),
    transaction_id: z.string().optional(),
    transaction_amount: AmountType,
    credit_debit_indicator: z.enum(['CRDT', 'DBIT']),
    status: z.enum(['BOOK', 'PDNG']),
    creditor: z.strictObject({ name: z.string() }).optional(),
    debtor: z.strictObject({ name: z.string() }).optional(),
    bank_transaction_code: z.strictObject({ description: z.string() }),
    booking_date: Day.optional(),
    value_date: Day,
    transaction_date: Day,
    balance_after_transaction: AmountType.optional(),
    remittance_information: z.array(z.string()),
  })
  .meta({ id: 'Transaction' });

export const HalTransactions = z
  .object({ transactions: z.array(TransactionSchema), continuation_key: z.string().optional() })
  .meta({ id: 'HalTransactions' });

// Payments (PIS). Strings the face keeps (the request is stored as the app sent it) must be storable:
// no NUL, no lone surrogates (PostgreSQL's jsonb and text refuse them).
const storable = (value: string) => value.isWellFormed() && !value.includes('\u0000');
const Text = (max: number) => z.string().max(max).refine(storable, 'Must be text without NUL or lone surrogates');

/** The document's `PaymentType`s; the face executes SEPA, INST_SEPA and DOMESTIC (docs/faces/enablebanking.md). */
const PAYMENT_TYPES = [
  'SEPA',
  'INST_SEPA',
  'DOMESTIC',
  'CROSSBORDER',
  'DOMESTIC_SE_GIRO',
  'INTERNAL',
  'BULK_SEPA',
  'BULK_DOMESTIC',
  'BULK_DOMESTIC_SE_GIRO',
] as const;

/** The document's `PaymentStatus`es the face answers. */
const PAYMENT_STATUSES = ['PDNG', 'RCVD', 'ACTC', 'ACSP', 'ACSC', 'RJCT', 'CNCL'] as const;

const AccountIdentification = z
  .object({ identification: Text(50).pipe(z.string().min(1)), scheme_name: z.string().max(10) })
  .meta({ id: 'AccountIdentification' });

const InstructedAmount = z
  .object({
    currency: z.string().regex(/^[A-Z]{3}$/),
    amount: z.string().regex(/^\d{1,20}(\.\d{1,20})?$/, 'A positive decimal number with . as the separator'),
  })
  .meta({ id: 'InstructedAmount' });

const CreditTransferTransaction = z
  .object({
    instructed_amount: InstructedAmount,
    beneficiary: z.object({
      creditor: z.object({ name: Text(140).pipe(z.string().min(1)) }),
      creditor_account: AccountIdentification,
    }),
    payment_id: z
      .object({
        end_to_end_id: z
          .string()
          .regex(/^[A-Za-z0-9/?:().,'+ -]{1,35}$/, "1–35 characters of A–Z a–z 0–9 / - ? : ( ) . , ' + and space")
          .optional(),
        instruction_id: Text(35).optional(),
      })
      .optional(),
    requested_execution_date: Day.optional(),
    remittance_information: z.array(Text(140)).max(4).optional(),
    transaction_status: z.enum(PAYMENT_STATUSES).optional(),
  })
  .meta({ id: 'CreditTransferTransaction' });

export const PaymentRequestResource = z
  .object({
    payment_information_id: Text(35).optional(),
    payment_type_information: z
      .object({ instruction_priority: z.enum(['HIGH', 'NORM', 'EXPR']).optional(), local_instrument: Text(35).optional() })
      .optional(),
    debtor: z.object({ name: Text(140).optional() }).optional(),
    debtor_account: AccountIdentification.optional(),
    debtor_currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
    credit_transfer_transaction: z.array(CreditTransferTransaction).min(1).max(100),
  })
  .meta({ id: 'PaymentRequestResource' });

export const CreatePaymentRequest = z
  .object({
    payment_type: z.enum(PAYMENT_TYPES),
    payment_request: PaymentRequestResource,
    aspsp: AspspSchema,
    state: Text(1024),
    redirect_url: z.url().max(2048),
    psu_type: PsuType.default('personal'),
    auth_method: z.string().max(200).optional(),
    language: z
      .string()
      .regex(/^[a-z]{2}$/)
      .optional(),
    psu_id: z.string().max(200).optional(),
  })
  .meta({ id: 'CreatePaymentRequest' });

export const CreatePaymentResponse = z
  .object({ payment_id: Uuid, status: z.enum(PAYMENT_STATUSES), url: z.url(), psu_id_hash: z.string() })
  .meta({ id: 'CreatePaymentResponse' });

export const GetPaymentResponse = z
  .object({
    payment_id: Uuid,
    status: z.enum(PAYMENT_STATUSES),
    payment_details: PaymentRequestResource,
    payment_type: z.enum(PAYMENT_TYPES),
    aspsp: AspspSchema,
    final_status: z.boolean(),
    status_reason_information: z
      .strictObject({ status_reason_code: z.string(), status_reason_description: z.string() })
      .optional()
      .meta({ id: 'StatusReasonInformation' }),
    psu_id_hash: z.string(),
  })
  .meta({ id: 'GetPaymentResponse' });
