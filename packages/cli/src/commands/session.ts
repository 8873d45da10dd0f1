/** `sandbank login` and `sandbank logout`: the session kept in the config directory. */
import type { Command } from 'commander';
import { DEFAULT_API_URL, refusal, request } from '../api.ts';
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
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}
