/** `sandbank pay`: a payment from one of your accounts, to another of them or to an IBAN (docs/concepts/payments.md). */
import { randomUUID } from 'node:crypto';
import { type Command, InvalidArgumentError, Option } from 'commander';
import { CliError, EXIT } from '../output.ts';
import { type CommandContext, positiveInt } from './context.ts';

const SCHEMES = ['elixir', 'express_elixir', 'sepa', 'sepa_instant'] as const;

interface PayOptions {
  from: string;
  toAccount?: string;
  iban?: string;
  name?: string;
  amount: number;
  scheme?: (typeof SCHEMES)[number];
  description?: string;
  date?: string;
  idempotencyKey?: string;
}

const day = (value: string) => {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) throw new InvalidArgumentError('a day, YYYY-MM-DD');
  return value;
};

export function registerPayCommand(program: Command, { output, api }: CommandContext): void {
  program
    .command('pay')
    .description('pay from one of your accounts: to another of them (instant) or to an IBAN (over a clearing scheme)')
    .requiredOption('--from <account>', 'the account id the money leaves')
    .option('--to-account <account>', 'another of your accounts (an own-account transfer)')
    .option('--iban <iban>', "the creditor's IBAN (anyone else)")
    .option('--name <name>', "the creditor's name (with --iban)")
    .requiredOption('--amount <minor>', "the amount in the source account's minor units (grosze, cents, yen, fils)", positiveInt)
    .addOption(
      new Option('--scheme <scheme>', 'to an IBAN: the scheme (default by currency: PLN elixir, EUR sepa)').choices(SCHEMES),
    )
    .option('--description <text>', 'remittance information (at most 140 characters)')
    .option('--date <day>', 'the requested execution date, a Warsaw day (default: today)', day)
    .option(
      '--idempotency-key <key>',
      'repeat a payment safely: the same key and body answer the same payment (default: a new key)',
    )
    .action(async (options: PayOptions) => {
      if ((options.toAccount === undefined) === (options.iban === undefined)) {
        throw new CliError('give either --to-account or --iban (with --name)', EXIT.usage, 'USAGE');
      }
      if (options.iban !== undefined && !options.name) throw new CliError('--iban needs --name', EXIT.usage, 'USAGE');
      if (options.toAccount !== undefined && (options.name !== undefined || options.scheme !== undefined)) {
        throw new CliError('--name and --scheme go with --iban only', EXIT.usage, 'USAGE');
      }
      const out = output();
      const client = await api();
      const body = {
        fromAccountId: options.from,
        to:
          options.toAccount !== undefined
            ? { accountId: options.toAccount }
            : { iban: options.iban ?? '', name: options.name ?? '' },
        amount: options.amount,
        ...(options.scheme ? { scheme: options.scheme } : {}),
        ...(options.description ? { description: options.description } : {}),
        ...(options.date ? { requestedExecutionDate: options.date } : {}),
      };
      const key = options.idempotencyKey ?? randomUUID();
      const { data } = await client.answer(client.rest.POST('/v1/payments', { body, headers: { 'Idempotency-Key': key } }));
      const reason = data.statusReason ? ` ${data.statusReason.code}: ${data.statusReason.message}` : '';
      out.result(
        { ...data, idempotencyKey: key },
        `Payment ${data.id}: ${data.amount} ${data.currency} minor units via ${data.scheme}, ${data.status}${reason} (end-to-end ${data.endToEndId})`,
      );
    });
}
