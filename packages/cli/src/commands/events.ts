/** `sandbank listen` (the event stream, forwarded to a local URL) and `sandbank trigger` (a simulation that makes an event). */
import { type Command, InvalidArgumentError } from 'commander';
import { cliEnv } from '../env.ts';
import { defaultResumeFile, listen } from '../listen.ts';
import { CliError, EXIT } from '../output.ts';
import { newLocalSecret, secretKey } from '../signing.ts';
import { TRIGGER_KINDS, trigger } from '../trigger.ts';
import { type CommandContext, fromCwd, positiveInt } from './context.ts';

export function registerEventCommands(program: Command, { output, api }: CommandContext): void {
  program
    .command('listen')
    .description('forward the event stream to a local URL, signed with a local Standard Webhooks secret')
    .requiredOption('-f, --forward-to <url>', 'where to POST each event, e.g. http://localhost:4242/hooks', (value: string) => {
      try {
        const url = new URL(value);
        if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error();
        return url;
      } catch {
        throw new InvalidArgumentError('an http(s) URL');
      }
    })
    .option('--events <kinds>', 'comma-separated event kinds (default: all)', (value: string) => value.split(',').filter(Boolean))
    .option(
      '--secret <whsec>',
      'the local signing secret (default: a new one, printed; or SANDBANK_LISTEN_SECRET)',
      cliEnv.listenSecret,
    )
    .option('--after <cursor>', 'start after this event-log cursor (overrides the resume file)')
    .option('--from-start', 'without a saved resume point, start from the first event instead of now')
    .option(
      '--resume-file <file>',
      'where the resume point is kept (default: one per API, URL and kinds in your config directory)',
    )
    .option('--max-attempts <n>', 'tries per event before it is reported failed', positiveInt, 5)
    .option('--backoff <ms>', 'the first retry wait (doubles per try, up to 8 s)', positiveInt, 500)
    .option('--timeout <ms>', 'per-request timeout', positiveInt, 10_000)
    .action(
      async (options: {
        forwardTo: URL;
        events?: string[];
        secret?: string;
        after?: string;
        fromStart?: boolean;
        resumeFile?: string;
        maxAttempts: number;
        backoff: number;
        timeout: number;
      }) => {
        const out = output();
        const secret = options.secret ?? newLocalSecret();
        try {
          secretKey(secret);
        } catch (error) {
          throw new CliError(`--secret: ${(error as Error).message}`, EXIT.usage, 'USAGE');
        }
        const client = await api();
        const controller = new AbortController();
        const stop = () => controller.abort();
        process.once('SIGINT', stop);
        process.once('SIGTERM', stop);
        await listen({
          api: client,
          out,
          forwardTo: options.forwardTo,
          events: options.events,
          secret,
          after: options.after,
          fromStart: options.fromStart === true,
          resumeFile: options.resumeFile
            ? fromCwd(options.resumeFile)
            : defaultResumeFile(client.apiUrl, options.forwardTo, options.events),
          maxAttempts: options.maxAttempts,
          backoffMs: options.backoff,
          timeoutMs: options.timeout,
          signal: controller.signal,
        });
      },
    );

  program
    .command('trigger')
    .description(`book a simulation that makes an event: ${TRIGGER_KINDS.join(', ')}`)
    .argument('<kind>', 'the event kind to make')
    .option('-a, --account <id>', 'the account (default: your first open account, opened if you have none)')
    .option('--amount <minor>', "the amount in the account's minor units (grosze for PLN, yen for JPY)", positiveInt, 1250)
    .option('-w, --webhook <id>', 'webhook.test: the webhook to send it to (default: your only webhook)')
    .action(async (kind: string, options: { account?: string; amount: number; webhook?: string }) => {
      const out = output();
      if (!(TRIGGER_KINDS as readonly string[]).includes(kind)) {
        throw new CliError(`unknown kind ${kind}: one of ${TRIGGER_KINDS.join(', ')}`, EXIT.usage, 'USAGE');
      }
      const result = await trigger(await api(), kind, options);
      out.result(result, `Triggered ${out.colors.bold(kind)}: ${result.summary}`);
    });
}
