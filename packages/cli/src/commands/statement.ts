/** `sandbank statement`: a bank statement file of one account. */
import { writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { count } from '../output.ts';
import { type CommandContext, fromCwd } from './context.ts';

export function registerStatementCommand(program: Command, { output, api }: CommandContext): void {
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
          `Wrote ${count(bytes.length, 'byte')} to ${options.output}`,
        );
      } else process.stdout.write(bytes);
    });
}
