/**
 * The face's wire in GoCardless's own field names (zod). Requests: objects are not strict (GoCardless's
 * API ignores fields it does not know, and nordigen-node sends some: `ssn: null`,
 * `redirect_immediate`); every string has a length bound and every number a range. Answers: what
 * `mapping.ts` builds, strictly (no field left undescribed), for the face's OpenAPI document
 * (`/faces/gocardless/openapi.json`); `test/gocardless-openapi.test.ts` parses real answers with them.
 */

import { ACCESS_SCOPES, LocalDaySchema, REQUISITION_STATUSES } from '@sandbank/core';
import { z } from 'zod';

/** A whole number, as JSON sends it or as a short decimal string (GoCardless's forms accept both). */
const wholeNumber = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^\d{1,6}$/)
    .transform(Number),
]);

export const TokenNewSchema = z.object({
  secret_id: z.string().min(1).max(64),
  secret_key: z.string().min(1).max(256),
});

export const TokenRefreshSchema = z.object({ refresh: z.string().min(1).max(4096) });

export const AgreementSchema = z.object({
  institution_id: z.string().min(1).max(100),
  max_historical_days: wholeNumber.pipe(z.number().int().min(1).max(730)).default(90),
  access_valid_for_days: wholeNumber.pipe(z.number().int().min(1).max(180)).default(90),
  access_scope: z
    .array(z.enum(ACCESS_SCOPES))
    .min(1)
    .max(3)
    .default([...ACCESS_SCOPES]),
  reconfirmation: z.boolean().optional(),
});

/** C0 controls and DEL: what a URL parser drops or a header would split on. */
const isControlCharacter = (char: string) => {
  const code = char.charCodeAt(0);
  return code < 0x20 || code === 0x7f;
};

export const RequisitionSchema = z.object({
  // A URL parser drops tabs and line breaks silently: refused here, and the URL stored as it parses.
  redirect: z
    .string()
    .max(1024)
    .refine((value) => ![...value].some(isControlCharacter), 'Must not contain control characters')
    .pipe(z.url({ protocol: /^https?$/ }))
    .transform((value) => new URL(value).href),
  institution_id: z.string().min(1).max(100),
  agreement: z.uuid().optional(),
  reference: z.string().min(1).max(256).optional(),
  user_language: z
    .string()
    .regex(/^[A-Za-z]{2}$/)
    .optional(),
  ssn: z.string().max(64).nullable().optional(),
  account_selection: z.boolean().optional(),
  redirect_immediate: z.boolean().optional(),
});

export const PageQuerySchema = z.object({
  limit: wholeNumber.pipe(z.number().int().min(1).max(100)).default(100),
  offset: wholeNumber.pipe(z.number().int().min(0).max(1_000_000)).default(0),
});

export const TransactionsQuerySchema = z.object({
  date_from: LocalDaySchema.optional(),
  date_to: LocalDaySchema.optional(),
  country: z.string().max(2).optional(),
});

export const IdSchema = z.uuid();

/** `GET /institutions/`'s query (for the document: the route reads `country` itself). */
export const CountryQuery = z.object({
  country: z.string().length(2).optional().meta({ description: 'ISO 3166 code, any case' }),
});

// The answers.

const Timestamp = z.iso.datetime({ offset: true });
const Day = z.iso.date();
const Amount = z
  .string()
  .regex(/^-?\d+(\.\d{2,3})?$/)
  .meta({
    description:
      'A decimal string in major units with its sign (negative = money out), with the places of the currency (ISO 4217): "-12.34" PLN, "-1234" JPY, "-1.234" KWD',
  });
const Money = z.strictObject({ amount: Amount, currency: z.string().length(3) });

export const GocardlessErrorSchema = z
  .strictObject({
    summary: z.string(),
    detail: z.string(),
    status_code: z.number().int(),
    type: z.string().optional().meta({ description: 'On the account endpoints: AccessExpiredError, RateLimitError, …' }),
  })
  .meta({ id: 'GocardlessError' });

const FieldError = z.strictObject({ summary: z.string(), detail: z.string() });

/** A refused field of a request body, keyed by the field's name, as the live service answers it. */
export const GocardlessFieldErrorSchema = z
  .object({ status_code: z.literal(400) })
  .catchall(z.union([z.array(z.union([FieldError, z.string()])).min(1), FieldError]))
  .meta({
    id: 'GocardlessFieldError',
    description:
      'A refused field of a request body, keyed by its name: `{"max_historical_days": [{"summary", "detail"}], "status_code": 400}`; a missing one `{"<field>": ["This field is required."]}`; an unknown institution `{"institution_id": {"summary", "detail"}}`',
  });

export const TokenNewResponse = z.strictObject({
  access: z.string(),
  access_expires: z.literal(86_400),
  refresh: z.string(),
  refresh_expires: z.literal(2_592_000),
});
export const TokenRefreshResponse = z.strictObject({ access: z.string(), access_expires: z.literal(86_400) });

const InstitutionSchema = z
  .strictObject({
    id: z.string(),
    name: z.string(),
    bic: z.string(),
    transaction_total_days: z.string().regex(/^\d+$/),
    max_access_valid_for_days: z.string().regex(/^\d+$/),
    countries: z.array(z.string().length(2)),
    logo: z.url(),
  })
  .meta({ id: 'Institution' });
export const InstitutionsResponse = z.array(InstitutionSchema);
export const InstitutionResponse = InstitutionSchema.extend({
  supported_payments: z.strictObject({}),
  supported_features: z.array(z.string()),
  identification_codes: z.array(z.string()),
});

export const AgreementResponse = z
  .strictObject({
    id: z.uuid(),
    created: Timestamp,
    institution_id: z.string(),
    max_historical_days: z.number().int(),
    access_valid_for_days: z.number().int(),
    access_scope: z.array(z.enum(ACCESS_SCOPES)),
    accepted: Timestamp.nullable(),
    reconfirmation: z.boolean(),
  })
  .meta({ id: 'EndUserAgreement' });

export const RequisitionResponse = z
  .strictObject({
    id: z.uuid(),
    created: Timestamp,
    redirect: z.url(),
    status: z.enum(REQUISITION_STATUSES).meta({
      description:
        'CR created, GC giving consent (the consent page is open), SA selecting accounts, LN linked, RJ refused, EX expired (the agreement ran out on the world’s clock)',
    }),
    institution_id: z.string(),
    agreement: z.uuid(),
    reference: z.string(),
    accounts: z.array(z.uuid()),
    user_language: z.string(),
    link: z.url(),
    account_selection: z.boolean(),
    redirect_immediate: z.boolean(),
  })
  .meta({ id: 'Requisition' });
export const RequisitionsResponse = z.strictObject({
  count: z.number().int(),
  next: z.null(),
  previous: z.null(),
  results: z.array(RequisitionResponse),
});

export const AccountResponse = z.strictObject({
  id: z.uuid(),
  created: Timestamp,
  last_accessed: Timestamp.optional().meta({ description: 'Absent until the account is first read' }),
  iban: z.string(),
  bban: z.string(),
  institution_id: z.string(),
  status: z.enum(['READY', 'EXPIRED']),
  owner_name: z.string(),
});

export const DetailsResponse = z.strictObject({
  account: z.strictObject({
    resourceId: z.uuid(),
    iban: z.string(),
    bban: z.string(),
    bic: z.string(),
    currency: z.string().length(3),
    ownerName: z.string(),
    name: z.string(),
    product: z.string(),
    cashAccountType: z.literal('CACC'),
    status: z.enum(['enabled', 'deleted']),
  }),
});

export const BalancesResponse = z.strictObject({
  balances: z.array(
    z.strictObject({
      balanceAmount: Money,
      balanceType: z.enum(['closingBooked', 'interimBooked', 'interimAvailable']),
      referenceDate: Day,
    }),
  ),
});

const TransactionSchema = z
  .strictObject({
    transactionId: z.string().optional().meta({ description: 'Absent on pending entries of some institutions (quirks)' }),
    internalTransactionId: z.string().regex(/^[0-9a-f]{32}$/),
    transactionAmount: Money,
    creditorName: z.string().optional(),
    creditorAccount: z.strictObject({ iban: z.string() }).optional().meta({ description: "A payment's creditor (money out)" }),
    debtorName: z.string().optional(),
    debtorAccount: z.strictObject({ iban: z.string() }).optional().meta({ description: "A payment's debtor (money in)" }),
    endToEndId: z.string().optional().meta({ description: "A payment's EndToEndId" }),
    remittanceInformationUnstructured: z.string(),
    proprietaryBankTransactionCode: z.string(),
    bookingDate: Day.optional().meta({ description: 'Booked entries only' }),
    valueDate: Day,
    bookingDateTime: Timestamp.optional().meta({ description: 'Booked entries only' }),
    balanceAfterTransaction: z
      .strictObject({ balanceAmount: Money, balanceType: z.literal('interimBooked') })
      .optional()
      .meta({ description: 'Booked entries only' }),
  })
  .meta({ id: 'Transaction' });

export const TransactionsResponse = z.strictObject({
  transactions: z.strictObject({ booked: z.array(TransactionSchema), pending: z.array(TransactionSchema) }),
});
