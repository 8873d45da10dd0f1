/** `sandbank scenario apply`: a scenario document applied to the world. */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import { CliError, EXIT } from '../output.ts';
import { type CommandContext, fromCwd } from './context.ts';

export function registerScenarioCommands(program: Command, { output, api }: CommandContext): void {
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
}
