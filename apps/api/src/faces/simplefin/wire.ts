/**
 * The face's response bodies in SimpleFIN's field names (zod), for its OpenAPI document
 * (`/faces/simplefin/openapi.json`, endpoints.ts): protocol 1.0's Account Set, the 2.0 draft's, and `/info`. They
 * describe exactly what `mapping.ts` builds (no other fields: every object is strict); the tests
 * check real answers against the served document.
 */
import { z } from 'zod';

const Money = z
  .string()
  .regex(/^-?\d+(\.\d{2,3})?$/)
  .meta({
    description:
      "A decimal string with the places of the account's currency (ISO 4217: two for PLN, none for JPY, three for KWD), e.g. `-0.05`, `1234.50`",
  });
const UnixSeconds = z.int().min(0).meta({ format: 'int64', description: 'Unix seconds' });
const Text = z.string().max(2048);

const TransactionSchema = z
  .strictObject({
    id: z.uuid().meta({ description: 'The Sandbank transaction id: the same while pending and once posted' }),
    posted: UnixSeconds.meta({ description: 'When it posted, Unix seconds; 0 while pending' }),
    amount: Money.meta({ description: 'Positive when money comes into the account' }),
    description: Text,
    payee: Text.meta({
      description: 'The merchant, or the description when there is none (not in the 1.0 text; Actual reads it)',
    }),
    memo: z.literal(''),
    transacted_at: UnixSeconds.meta({ description: 'The transaction’s date, Unix seconds' }),
    pending: z.boolean(),
  })
  .meta({ id: 'Transaction' });

const AccountExtraSchema = z
  .strictObject({
    iban: z
      .string()
      .regex(/^PL\d{26}$/)
      .meta({ description: 'The account’s IBAN, electronic form (no spaces), as in every face and GET /v1/accounts/{id}' }),
    bic: z
      .string()
      .regex(/^[A-Z0-9]{8}([A-Z0-9]{3})?$/)
      .meta({ description: 'Sandbank’s BIC (a test BIC)' }),
  })
  .meta({
    id: 'AccountExtra',
    description: 'Data the protocol does not define, in the object it leaves to the server (`extra`)',
  });

const accountFields = {
  id: z.uuid().meta({ description: 'The Sandbank account id' }),
  name: Text,
  currency: z.string().length(3).meta({ description: 'ISO 4217' }),
  balance: Money.meta({ description: 'The posted balance as of balance-date' }),
  'available-balance': Money.meta({ description: 'The posted balance less held pending debits' }),
  'balance-date': UnixSeconds.meta({ description: 'The world’s clock at the time of the request' }),
  transactions: z.array(TransactionSchema).max(10_000).meta({ description: 'Oldest first; empty with balances-only=1' }),
  holdings: z.array(z.never()).max(0).meta({ description: 'Always empty (older Actual versions read it)' }),
  extra: AccountExtraSchema,
};

const OrganizationSchema = z
  .strictObject({
    domain: z.string().meta({ description: 'The host of PUBLIC_URL' }),
    'sfin-url': z.url().meta({ description: 'PUBLIC_URL + /simplefin' }),
    name: z.literal('Sandbank'),
    id: z.literal('sandbank'),
  })
  .meta({ id: 'Organization' });

const AccountV1Schema = z.strictObject({ org: OrganizationSchema, ...accountFields }).meta({ id: 'AccountV1' });
const AccountV2Schema = z
  .strictObject({ ...accountFields, conn_id: z.string().meta({ description: '`CON-` + the user id' }) })
  .meta({ id: 'AccountV2' });

export const AccountSetV1Schema = z
  .strictObject({
    errors: z.array(Text).meta({
      description: 'One string per account whose window held more than 10,000 transactions (only the newest are listed)',
    }),
    accounts: z.array(AccountV1Schema),
  })
  .meta({ id: 'AccountSetV1', description: 'Protocol 1.0 (no version, version=1 or 1.0)' });

export const AccountSetV2Schema = z
  .strictObject({
    errlist: z.array(
      z.strictObject({
        code: z.literal('act.missingdata'),
        msg: Text,
        account_id: z.uuid(),
      }),
    ),
    connections: z.array(
      z.strictObject({
        conn_id: z.string(),
        name: z.literal('Sandbank'),
        org_id: z.literal('sandbank'),
        org_url: z.url(),
        sfin_url: z.url(),
      }),
    ),
    accounts: z.array(AccountV2Schema),
  })
  .meta({ id: 'AccountSetV2', description: 'Protocol 2.0 draft (version=2 or 2.0)' });

export const InfoSchema = z.strictObject({ versions: z.array(z.enum(['1.0', '2.0'])) }).meta({ id: 'Info' });

/** `POST /claim/:code`'s answer, as text/plain: `http(s)://<user id>:<API key>@<public host>/simplefin`. */
export const AccessUrlSchema = z.url();
