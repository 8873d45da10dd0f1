/** `sandbank login` and `sandbank logout`: the session kept in the config directory. */
import type { Command } from 'commander';
import { DEFAULT_API_URL, refusal, signedOutApi } from '../api.ts';
import { sessionFile, writeSession } from '../credentials.ts';
import { cliEnv } from '../env.ts';
import { CliError, EXIT } from '../output.ts';
import type { CommandContext } from './context.ts';

export function registerSessionCommands(program: Command, { globals, output }: CommandContext): void {
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
      const rest = signedOutApi(apiUrl);
      const credentials = { body: { email: options.email, password } };
      const {
        data: body,
        error,
        response,
      } = await (options.register ? rest.POST('/v1/auth/register', credentials) : rest.POST('/v1/auth/login', credentials));
      if (!body) {
        const refused = refusal(response, error);
        throw response.status === 401
          ? new CliError(refused.message.replace(' (run sandbank login)', ''), EXIT.auth, refused.code)
          : refused;
      }
      const { data } = body;
      const file = await writeSession({
        apiUrl,
        email: data.user.email,
        accessToken: data.accessToken,
        refreshToken: data.refreshToken,
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
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
