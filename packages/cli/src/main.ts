/**
 * `sandbank`: the Sandbank command line (docs/guides/webhooks.md). Commands: login, logout, listen, trigger, clock
 * advance, scenario apply, statement, worlds fork/list/remove, snapshots list/create. `--help` on every command; `--json` for scripts; exit codes in
 * output.ts. Parsed with commander.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Command, CommanderError, InvalidArgumentError, Option } from 'commander';
import { DEFAULT_API_URL, openApi, refusal, request } from './api.ts';
import { sessionFile, writeSession } from './credentials.ts';
import { cliEnv } from './env.ts';
import { defaultResumeFile, listen } from './listen.ts';
import { CliError, createOutput, EXIT, type Output, reportFailure } from './output.ts';
import { newLocalSecret, secretKey } from './signing.ts';
import { TRIGGER_KINDS, trigger } from './trigger.ts';

interface GlobalOptions {
  json: boolean;
  color: boolean;
  apiUrl?: string;
}

/** Files named on the command line are read from where the command was typed (pnpm runs scripts at the root). */
const fromCwd = (file: string) => path.resolve(cliEnv.initCwd ?? process.cwd(), file);

const positiveInt = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 1_000_000) throw new InvalidArgumentError('a whole number ≥ 1');
  return number;
};

function buildProgram(): Command {
  const program = new Command('sandbank')
    .description('The Sandbank command line: log in, forward events to localhost, trigger events, move the clock, fork worlds')
    .version('0.1.0')
    .addOption(new Option('--api-url <url>', 'the API (default: the logged-in one, or SANDBANK_API_URL)').env('SANDBANK_API_URL'))
    .option('--json', 'print results as JSON (one document per line)', false)
    .option('--no-color', 'no colors (also when not a terminal, or with NO_COLOR)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const globals = () => program.opts<GlobalOptions>();
  const output = () => createOutput({ json: globals().json, color: globals().color });
  const api = () => openApi(globals().apiUrl);

  program
    .command('login')
    .description('log in and keep the session in your config directory (mode 600)')
    .requiredOption('-e, --email <email>', 'your e-mail (or SANDBANK_EMAIL)', cliEnv.email)
    .option('-p, --password <password>', 'your password (or SANDBANK_PASSWORD; prefer --password-stdin)', cliEnv.password)
    .option('--password-stdin', 'read the password from standard input')
    .option('--register', 'create the user first')
    .action(async (options: { email: string; password?: string; passwordStdin?: boolean; register?: boolean }) => {
      const out = output();
      const apiUrl = globals().apiUrl ?? DEFAULT_API_URL;
      const password = options.passwordStdin ? (await readStdin()).replace(/\r?\n$/, '') : options.password;
      if (!password)
        throw new CliError('a password is required: --password-stdin, --password or SANDBANK_PASSWORD', EXIT.usage, 'USAGE');
      const response = await request(`${apiUrl}/v1/auth/${options.register ? 'register' : 'login'}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: options.email, password }),
      });
      if (!response.ok) {
        const error = await refusal(response);
        throw response.status === 401
          ? new CliError(error.message.replace(' (run sandbank login)', ''), EXIT.auth, error.code)
          : error;
      }
      const { data } = (await response.json()) as {
        data: { accessToken: string; refreshToken: string; expiresIn: number; user: { id: string; email: string } };
      };
      const file = await writeSession({
        apiUrl,
        email: data.user.email,
        accessToken: data.accessToken,
        refreshToken: data.refreshToken,
        expiresAt: Date.now() + data.expiresIn * 1000,
      });
      out.result(
        { user: data.user, apiUrl, sessionFile: file },
        `Logged in to ${apiUrl} as ${out.colors.bold(data.user.email)} (session in ${file})`,
      );
    });

  program
    .command('logout')
    .description('forget the saved session')
    .action(async () => {
      const { rm } = await import('node:fs/promises');
      await rm(sessionFile(), { force: true });
      output().result({ loggedOut: true }, 'Logged out');
    });

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
            : defaultResumeFile(client.session.apiUrl, options.forwardTo, options.events),
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
    .option('--amount <minor>', 'the amount in minor units (grosze)', positiveInt, 1250)
    .option('-w, --webhook <id>', 'webhook.test: the webhook to send it to')
    .action(async (kind: string, options: { account?: string; amount: number; webhook?: string }) => {
      const out = output();
      if (!(TRIGGER_KINDS as readonly string[]).includes(kind)) {
        throw new CliError(`unknown kind ${kind}: one of ${TRIGGER_KINDS.join(', ')}`, EXIT.usage, 'USAGE');
      }
      const result = await trigger(await api(), kind, options);
      out.result(result, `Triggered ${out.colors.bold(kind)}: ${result.summary}`);
    });

  const clock = program.command('clock').description("your world's clock");
  clock
    .command('show')
    .description("the world's now")
    .action(async () => {
      const out = output();
      const { data } = await (await api()).call<{ data: { now: string } }>('GET', '/v1/clock');
      out.result(data, `Now: ${data.now}`);
    });
  clock
    .command('advance')
    .description('move the clock forward by an ISO 8601 duration (P1M, PT36H): schedules fire, holds settle or expire')
    .argument('<duration>', 'e.g. P1M, P7D, PT36H')
    .action(async (duration: string) => {
      const out = output();
      if (!/^P(?!$)(\d+Y)?(\d+M)?(\d+W)?(\d+D)?(T(?=\d)(\d+H)?(\d+M)?(\d+S)?)?$/.test(duration)) {
        throw new CliError(`not an ISO 8601 duration: ${duration} (e.g. P1M, PT36H)`, EXIT.usage, 'USAGE');
      }
      const client = await api();
      const { data } = await out.progress(`advancing the clock by ${duration}…`, () =>
        client.call<{ data: { from: string; now: string; fired: Record<string, number>; events: number } }>(
          'POST',
          '/v1/clock/advance',
          { by: duration },
        ),
      );
      out.result(data, `Clock moved from ${data.from} to ${data.now}; ${data.events} events (${JSON.stringify(data.fired)})`);
    });

  program
    .command('scenario')
    .description('scenarios: whole worlds from a file')
    .command('apply')
    .description('apply a scenario document (JSON; see GET /v1/scenarios/schema)')
    .argument('<file>', 'the scenario file')
    .option('--reset', 'reset the world first (as POST /v1/sandbox/reset)')
    .action(async (file: string, options: { reset?: boolean }) => {
      const out = output();
      let document: unknown;
      try {
        document = JSON.parse(await readFile(fromCwd(file), 'utf8'));
      } catch (error) {
        throw new CliError(`cannot read ${file}: ${(error as Error).message}`, EXIT.usage, 'USAGE');
      }
      const client = await api();
      const { data } = await out.progress(`applying ${file}…`, () =>
        client.call<{ data: Record<string, unknown> }>('POST', '/v1/scenarios/apply', {
          scenario: document,
          ...(options.reset ? { reset: true } : {}),
        }),
      );
      out.result(data, `Scenario applied: ${JSON.stringify(data)}`);
    });

  const worlds = program.command('worlds').description('disposable child worlds (docs/guides/testing-your-app.md)');
  worlds
    .command('fork')
    .description('a new child world forked from one of your snapshots: prints its id, access token, API key and expiry')
    .argument('<snapshot>', 'the snapshot id (sandbank snapshots list)')
    .option('--ttl <duration>', 'how long it lives: an ISO 8601 duration, PT1S to P7D (default PT1H)')
    .action(async (snapshot: string, options: { ttl?: string }) => {
      const out = output();
      const client = await api();
      const { data } = await out.progress(`forking ${snapshot}…`, () =>
        client.call<{ data: CreatedWorld }>('POST', '/v1/worlds', {
          snapshotId: snapshot,
          ...(options.ttl === undefined ? {} : { ttl: options.ttl }),
        }),
      );
      out.result(
        data,
        [
          `World ${out.colors.bold(data.world.id)} forked from snapshot ${snapshot}, expires ${data.world.expiresAt}`,
          `Access token: ${data.accessToken}`,
          `Refresh token: ${data.refreshToken}`,
          `API key: ${data.apiKey.key}`,
          ...data.webhooks.map((webhook) => `Webhook ${webhook.id} → ${webhook.url}, secret: ${webhook.secret}`),
          ...data.apiKeys.map((key) => `API key "${key.name}": ${key.key}`),
        ].join('\n'),
      );
    });
  worlds
    .command('list')
    .description('your live child worlds, newest first')
    .option('--page <n>', 'the page', positiveInt, 1)
    .option('--limit <n>', 'per page, 1–200', positiveInt, 100)
    .action(async (options: { page: number; limit: number }) => {
      const out = output();
      const answer = await (await api()).call<{ data: World[]; meta: { total: number } }>(
        'GET',
        `/v1/worlds?page=${options.page}&limit=${options.limit}`,
      );
      out.result(
        answer,
        answer.data.length === 0
          ? 'No live worlds'
          : answer.data
              .map(
                (world) => `${out.colors.bold(world.id)}  ${world.source} ${world.snapshotId ?? ''}  expires ${world.expiresAt}`,
              )
              .join('\n'),
      );
    });
  worlds
    .command('remove')
    .description('end a child world now: it and all its data are removed, its credentials stop working')
    .argument('<id>', 'the world id')
    .action(async (id: string) => {
      const out = output();
      const { data } = await (await api()).call<{ data: World }>('DELETE', `/v1/worlds/${encodeURIComponent(id)}`);
      out.result(data, `Removed world ${out.colors.bold(data.id)}`);
    });

  const snapshots = program.command('snapshots').description('snapshots of your world, to fork or restore');
  snapshots
    .command('list')
    .description('your snapshots, newest first')
    .option('--page <n>', 'the page', positiveInt, 1)
    .option('--limit <n>', 'per page, 1–200', positiveInt, 100)
    .action(async (options: { page: number; limit: number }) => {
      const out = output();
      const answer = await (await api()).call<{ data: Snapshot[]; meta: { total: number } }>(
        'GET',
        `/v1/sandbox/snapshots?page=${options.page}&limit=${options.limit}`,
      );
      out.result(
        answer,
        answer.data.length === 0 ? 'No snapshots' : answer.data.map((snapshot) => describeSnapshot(snapshot, out)).join('\n'),
      );
    });
  snapshots
    .command('create')
    .description('keep your world as it is now (or, with --scenario, the world a scenario builds)')
    .argument('<name>', 'a name for it')
    .option('--scenario <file>', 'keep the world this scenario document builds (JSON) instead of yours')
    .option(
      '--include <kinds>',
      'also keep webhooks and/or API keys, comma-separated: webhooks,apiKeys (never their secrets: each fork gets fresh ones)',
      (value: string) => value.split(',').map((kind) => kind.trim()),
    )
    .action(async (name: string, options: { scenario?: string; include?: string[] }) => {
      const out = output();
      let scenario: unknown;
      if (options.scenario !== undefined) {
        try {
          scenario = JSON.parse(await readFile(fromCwd(options.scenario), 'utf8'));
        } catch (error) {
          throw new CliError(`cannot read ${options.scenario}: ${(error as Error).message}`, EXIT.usage, 'USAGE');
        }
      }
      const { data } = await (await api()).call<{ data: Snapshot }>('POST', '/v1/sandbox/snapshots', {
        name,
        ...(scenario === undefined ? {} : { scenario }),
        ...(options.include === undefined ? {} : { include: options.include }),
      });
      out.result(data, `Snapshot taken: ${describeSnapshot(data, out)}`);
    });

  program
    .command('statement')
    .description('a bank statement file of one account (camt.053, camt.052, mt940, ofx, csv, …)')
    .argument('<account>', 'the account id')
    .requiredOption('--format <format>', 'the file format, e.g. camt.053, mt940, ofx, csv')
    .option('--from <day>', 'first day (YYYY-MM-DD)')
    .option('--to <day>', 'last day (YYYY-MM-DD)')
    .option('-o, --output <file>', 'write the file here (default: standard output)')
    .action(async (account: string, options: { format: string; from?: string; to?: string; output?: string }) => {
      const out = output();
      const query = new URLSearchParams({
        format: options.format,
        ...(options.from ? { from: options.from } : {}),
        ...(options.to ? { to: options.to } : {}),
      });
      const client = await api();
      const { response, bytes } = await out.progress(`downloading the ${options.format} statement…`, async () => {
        const response = await client.raw(`/v1/accounts/${encodeURIComponent(account)}/statement?${query}`);
        return { response, bytes: Buffer.from(await response.arrayBuffer()) };
      });
      if (options.output) {
        await writeFile(fromCwd(options.output), bytes);
        out.result(
          { file: options.output, bytes: bytes.length, contentType: response.headers.get('content-type') },
          `Wrote ${bytes.length} bytes to ${options.output}`,
        );
      } else process.stdout.write(bytes);
    });

  return program;
}

interface World {
  id: string;
  email: string;
  parentId: string;
  source: 'snapshot' | 'scenario';
  snapshotId: string | null;
  createdAt: string;
  expiresAt: string;
}

interface CreatedWorld {
  world: World;
  accessToken: string;
  refreshToken: string;
  tokenType: 'Bearer';
  expiresIn: number;
  apiKey: { id: string; name: string; prefix: string; createdAt: string; key: string };
  /** The snapshot's kept webhooks and API keys, made anew (`snapshots create --include`). */
  webhooks: { id: string; url: string; secret: string }[];
  apiKeys: { id: string; name: string; key: string }[];
}

interface Snapshot {
  id: string;
  name: string;
  takenAt: string;
  accounts: number;
  transactions: number;
  schedules: number;
  webhooks: number;
  apiKeys: number;
}

function describeSnapshot(snapshot: Snapshot, out: Output): string {
  const kept = [
    ...(snapshot.webhooks > 0 ? [`${snapshot.webhooks} webhooks`] : []),
    ...(snapshot.apiKeys > 0 ? [`${snapshot.apiKeys} API keys`] : []),
  ];
  return `${out.colors.bold(snapshot.id)}  ${snapshot.name}  (${snapshot.accounts} accounts, ${snapshot.transactions} transactions, ${snapshot.schedules} schedules${kept.map((part) => `, ${part}`).join('')}; taken at ${snapshot.takenAt})`;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end "with an error" that is not one.
      if (error.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    return reportFailure(error, program.opts<GlobalOptions>().json === true);
  }
}
