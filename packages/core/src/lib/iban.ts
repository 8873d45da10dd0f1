/** IBANs as requests give them: print or electronic form, checksum-valid, stored electronic. */
import { ExternalSchemeSchema } from '@sandbank/schemas';
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

/** A standing order's payment (schedules and scenarios): each occurrence pays the schedule's -amount to this IBAN. */
export const StandingOrderPaymentSchema = z
  .strictObject({
    to: z.strictObject({
      iban: IbanSchema,
      name: nameSchema(140).meta({ description: "The creditor's name", example: 'Jan Kowalski' }),
    }),
    scheme: ExternalSchemeSchema.optional().meta({
      description: "elixir, express_elixir (PLN), sepa, sepa_instant (EUR); default the account currency's (elixir, sepa)",
    }),
  })
  .meta({
    description:
      'A standing order: each occurrence makes a payment of -amount (amount is negative) to this IBAN, dated at its due time, instead of booking a transaction; a payment without funds is RJCT AM04 and the schedule goes on',
  });
