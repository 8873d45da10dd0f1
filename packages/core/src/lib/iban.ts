/** IBANs as requests give them: print or electronic form, checksum-valid, stored electronic. */
import { ExternalSchemeSchema, IdSchema } from '@sandbank/schemas';
import { electronicFormatIBAN, isValidIBAN } from 'ibantools';
import { z } from 'zod';
import { nameSchema } from './text.ts';

/** An IBAN in print or electronic form, checksum-valid (ISO 13616 mod 97, via ibantools); stored electronic. */
export const IbanSchema = z
  .string()
  .max(50)
  .transform((value) => electronicFormatIBAN(value) ?? '')
  .refine(isValidIBAN, 'Must be a valid IBAN (country, length and check digits)')
  .meta({
    description: 'An IBAN, with or without spaces; its check digits must be right',
    example: 'PL61109010140000071219812874',
  });

/** A standing order's payment to anyone by IBAN: each occurrence pays the schedule's -amount over a scheme. */
const IbanStandingOrderSchema = z.strictObject({
  to: z.strictObject({
    iban: IbanSchema,
    name: nameSchema(140).meta({ description: "The creditor's name", example: 'Jan Kowalski' }),
  }),
  scheme: ExternalSchemeSchema.optional().meta({
    description: "elixir, express_elixir (PLN), sepa, sepa_instant (EUR); default the account currency's (elixir, sepa)",
  }),
});

const STANDING_ORDER =
  'A standing order: each occurrence makes a payment of -amount (amount is negative, in the source account’s currency), dated at its due time, instead of booking a transaction; to an IBAN over a scheme, or to another open account of the same world (an instant own-account transfer, across currencies at the day’s rate less the spread); a payment without funds is RJCT AM04 and the schedule goes on';

/** A standing order's payment (schedules): to an IBAN, or to another own account of the world by its id. */
export const StandingOrderPaymentSchema = z
  .union([
    IbanStandingOrderSchema,
    z.strictObject({
      to: z.strictObject({
        accountId: IdSchema.meta({ description: 'Another open account of the same world (an own-account transfer)' }),
      }),
    }),
  ])
  .meta({ description: STANDING_ORDER });

/** A scenario's standing order: to an IBAN, or to another account of the document by its key. */
export const ScenarioStandingOrderPaymentSchema = z
  .union([
    IbanStandingOrderSchema,
    z.strictObject({
      to: z.strictObject({
        account: z.string().max(32).meta({ description: 'Another account of the document, by its key', example: 'savings' }),
      }),
    }),
  ])
  .meta({ description: STANDING_ORDER });
