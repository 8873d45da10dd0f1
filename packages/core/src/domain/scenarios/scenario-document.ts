/**
 * The scenario format (docs/concepts/scenarios.md): a JSON document that describes a world — accounts with an opening
 * balance, generated histories, explicit transactions and schedules, and webhooks. The zod schema
 * is the one definition: it validates `POST /v1/scenarios/apply`, types `GET /v1/scenarios/export`,
 * and is published as JSON Schema (`GET /v1/scenarios/schema`, docs/scenario.schema.json).
 *
 * Times (`at`, `startAt`) are an ISO instant, or a negative ISO 8601 duration relative to the
 * world's now (`-P3D`, `-PT2H`): a scenario written with relative times is the same world whenever
 * it is applied.
 */
import { CategorySchema, CurrencySchema } from '@sandbank/schemas';
import { z } from 'zod';
import { AppError } from '../../errors.ts';
import { IsoDurationSchema, isoDurationProblem, MAX_DURATION } from '../../lib/duration.ts';
import { exactJson } from '../../lib/exact-json.ts';
import { ScenarioStandingOrderPaymentSchema } from '../../lib/iban.ts';
import { nameSchema, textSchema } from '../../lib/text.ts';
import { parseInstant } from '../../lib/timestamps.ts';
import { MAX_AMOUNT } from '../simulations/simulate-transaction.ts';
import { ClientIdSchema, WebhookEventsSchema, WebhookSecretSchema, WebhookUrlSchema } from '../webhooks/webhook-fields.ts';
import { PROFILES } from './profiles.ts';

/** The bounds of one apply (docs/concepts/scenarios.md); beyond them 422 SCENARIO_TOO_LARGE. */
export const SCENARIO_LIMITS = { accounts: 100, transactions: 50_000 } as const;

export const scenarioTooLarge = (path: string, message: string) =>
  new AppError('SCENARIO_TOO_LARGE', message, { details: [{ path, message }] });

/**
 * The bounds as docs/concepts/scenarios.md states them — 422 SCENARIO_TOO_LARGE — checked on the document as it
 * arrives, before its schema (the apply procedure's middleware): the schema's maxItems would answer
 * 400 VALIDATION_ERROR, and validating tens of thousands of items only to refuse them is waste.
 * Anything that is not an array is left to the schema. Generated transactions and the past runs of
 * schedules are counted later, by the apply.
 */
export function checkScenarioBounds(document: unknown): void {
  const accounts = (document as { accounts?: unknown } | null | undefined)?.accounts;
  if (!Array.isArray(accounts)) return;
  if (accounts.length > SCENARIO_LIMITS.accounts) {
    throw scenarioTooLarge('scenario.accounts', `At most ${SCENARIO_LIMITS.accounts} accounts per apply`);
  }
  let transactions = 0;
  for (const [index, account] of accounts.entries()) {
    const listed = (account as { transactions?: unknown } | null | undefined)?.transactions;
    transactions += Array.isArray(listed) ? listed.length : 0;
    if (transactions > SCENARIO_LIMITS.transactions) {
      throw scenarioTooLarge(
        `scenario.accounts.${index}.transactions`,
        `At most ${SCENARIO_LIMITS.transactions} transactions per apply, generated ones included`,
      );
    }
  }
}

const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?(Z|[+-]\d{2}:\d{2})$/;

const ScenarioTimeSchema = z
  .string()
  .max(64)
  .superRefine((value, ctx) => {
    const relative = value.startsWith('-') ? value.slice(1) : null;
    if (
      relative === null
        ? !INSTANT.test(value) || parseInstant(value) === null
        : isoDurationProblem(relative, { zero: true, unbounded: true })
    ) {
      ctx.addIssue({
        code: 'custom',
        message:
          'Expected an ISO instant (2026-11-01T09:00:00Z, years 0001–9999) or a negative ISO duration relative to now (-P3D)',
      });
    } else if (relative !== null && isoDurationProblem(relative, { zero: true })) {
      ctx.addIssue({ code: 'custom', message: `A relative time reaches at most -${MAX_DURATION} back` });
    }
  })
  .meta({
    description: `An ISO instant, or a negative ISO 8601 duration relative to now (at most -${MAX_DURATION})`,
    example: '-P3D',
  });

const AmountSchema = exactJson(
  z
    .int()
    .min(-MAX_AMOUNT)
    .max(MAX_AMOUNT)
    .refine((amount) => amount !== 0, 'Must not be zero'),
).meta({ description: 'Minor units: positive credits, negative debits' });

const ExternalTxnIdSchema = z
  .string()
  .max(128)
  .regex(/^[\x21-\x7e]{1,128}$/, 'Expected 1–128 visible ASCII characters');

const ScenarioTransactionSchema = z.strictObject({
  at: ScenarioTimeSchema,
  amount: AmountSchema,
  description: textSchema(500),
  merchant: textSchema(200).nullable().optional(),
  category: CategorySchema.nullable().optional(),
  status: z.enum(['posted', 'pending']).optional().meta({ description: 'Default posted' }),
  settleAfter: IsoDurationSchema.optional(),
  expireAfter: IsoDurationSchema.optional(),
  externalTxnId: ExternalTxnIdSchema.optional().meta({ description: 'Default scn_<account key>_<n>' }),
  originalAmount: exactJson(
    z
      .int()
      .min(-1_000_000_000_000_000)
      .max(1_000_000_000_000_000)
      .refine((amount) => amount !== 0, 'Must not be zero'),
  )
    .optional()
    .meta({
      description:
        'A card payment in another currency: what the merchant charged, signed like amount (with originalCurrency and exchangeRate)',
    }),
  originalCurrency: CurrencySchema.optional().meta({ description: 'The merchant’s currency, not the account’s' }),
  exchangeRate: z
    .string()
    .max(33)
    .regex(/^\d{1,12}(\.\d{1,20})?$/, 'Expected a positive decimal such as 4.386')
    .refine((value) => /[1-9]/.test(value), 'Must be above zero')
    .optional()
    .meta({ description: 'The account currency per 1 unit of originalCurrency the payment was converted at', example: '4.386' }),
});

const ScenarioScheduleSchema = z.strictObject({
  amount: AmountSchema,
  description: textSchema(500),
  merchant: textSchema(200).nullable().optional(),
  category: CategorySchema.nullable().optional(),
  rrule: z.string().min(1).max(500).meta({ example: 'FREQ=MONTHLY;BYMONTHDAY=10' }),
  timezone: z.string().min(1).max(64).optional(),
  startAt: ScenarioTimeSchema.optional(),
  status: z.enum(['posted', 'pending']).optional(),
  settleAfter: IsoDurationSchema.optional(),
  paused: z.boolean().optional(),
  payment: ScenarioStandingOrderPaymentSchema.optional(),
});

const ScenarioAccountSchema = z.strictObject({
  key: z
    .string()
    .max(32)
    .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, 'Lowercase letters, digits, - and _; up to 32')
    .meta({ description: 'Names the account inside the scenario', example: 'main' }),
  name: nameSchema(100),
  currency: CurrencySchema.optional().meta({
    description: "The account's currency (GET /v1/currencies); default PLN. Every amount of the account is in its minor units",
  }),
  openingBalance: exactJson(z.int().min(0).max(1_000_000_000_000))
    .optional()
    .meta({ description: 'Minor units credited at the start of the history (or now); default 0' }),
  history: z
    .strictObject({
      months: exactJson(z.int().min(1).max(24)),
      profile: z.enum(PROFILES),
    })
    .optional()
    .meta({
      description:
        'A generated history of this many months before today, from the profile and the seed: the same transactions at the same days before today and Warsaw times, whatever the day of applying',
    }),
  transactions: z.array(ScenarioTransactionSchema).max(SCENARIO_LIMITS.transactions).optional(),
  schedules: z.array(ScenarioScheduleSchema).max(100).optional(),
});

const ScenarioWebhookSchema = z.strictObject({
  url: WebhookUrlSchema,
  secret: WebhookSecretSchema,
  events: WebhookEventsSchema,
  clientId: ClientIdSchema,
});

export const ScenarioSchema = z
  .strictObject({
    version: z.literal(1),
    seed: z
      .union([
        exactJson(
          z
            .int()
            .min(0)
            .max(2 ** 53 - 1),
        ),
        z.string().min(1).max(64),
      ])
      .meta({
        description: 'Every generated value comes from this seed alone',
        example: 42,
      }),
    fxSeed: exactJson(z.int().min(0).max(2_147_483_647)).optional().meta({
      description:
        "The seed of the world's reference exchange rates (docs/concepts/currencies.md); without it the documented default, 18",
      example: 7,
    }),
    asOf: ScenarioTimeSchema.optional().meta({
      description:
        "Export only: the exporting world's now; applying moves a younger clock forward to it (at most two years, as an advance, when a schedule run, settlement or expiry of the world is due on the way)",
    }),
    accounts: z
      .array(ScenarioAccountSchema)
      .max(SCENARIO_LIMITS.accounts)
      .refine(
        (accounts) => new Set(accounts.map((account) => account.key)).size === accounts.length,
        'Account keys must be unique',
      ),
    webhooks: z.array(ScenarioWebhookSchema).max(20).optional(),
  })
  .meta({ id: 'Scenario', title: 'Sandbank scenario', description: 'A world as data (docs/concepts/scenarios.md)' });

export type Scenario = z.infer<typeof ScenarioSchema>;
export type ScenarioTime = z.infer<typeof ScenarioTimeSchema>;
export type ScenarioStandingOrder = z.infer<typeof ScenarioStandingOrderPaymentSchema>;

/** The published JSON Schema of a scenario document. */
export function scenarioJsonSchema(): Record<string, unknown> {
  // The schema's id makes zod answer a $ref into $defs; a published schema is the object itself.
  const { $defs, ...top } = z.toJSONSchema(ScenarioSchema, { io: 'input', target: 'draft-2020-12' }) as {
    $defs?: Record<string, Record<string, unknown>>;
    $schema?: string;
  };
  const { Scenario, ...others } = $defs ?? {};
  return { $schema: top.$schema, ...Scenario, ...(Object.keys(others).length > 0 ? { $defs: others } : {}) };
}
