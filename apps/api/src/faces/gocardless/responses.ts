/**
 * The face's response bodies in GoCardless's field names (zod), for its OpenAPI document
 * (`/faces/gocardless/openapi.json`). They describe what `mapping.ts` builds, strictly (no field
 * left undescribed); `test/gocardless-openapi.test.ts` parses real answers with them.
 */
import { ACCESS_SCOPES, REQUISITION_STATUSES } from '@sandbank/core';
import { z } from 'zod';

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
