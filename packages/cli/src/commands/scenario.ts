/** `sandbank scenario apply`: a scenario document applied to the world. */
import { readFile } from 'node:fs/promises';
import type { components } from '@sandbank/client';
import type { Command } from 'commander';
import { CliError, count, EXIT } from '../output.ts';
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
        client.answer(
          client.rest.POST('/v1/scenarios/apply', {
            // The API checks the document (GET /v1/scenarios/schema); the CLI sends the file as it is.
            body: { scenario: document as Scenario, ...(options.reset ? { reset: true } : {}) },
          }),
        ),
      );
      out.result(data, `Scenario applied: ${describeApplied(data)}`);
    });
}

type Scenario = components['schemas']['Scenario'];
type Applied = components['schemas']['ApplyScenarioResult']['data'];

/** The apply's answer in words, one line per account. */
function describeApplied(applied: Applied): string {
  const runs = applied.scheduleRuns.booked + applied.scheduleRuns.failed;
  const backfill =
    runs === 0
      ? ''
      : ` (${count(runs, 'past run')}: ${applied.scheduleRuns.booked} booked, ${applied.scheduleRuns.failed} failed)`;
  return [
    `${count(applied.accounts.length, 'account')}, ${count(applied.transactions, 'transaction')}, ` +
      `${count(applied.schedules, 'schedule')}${backfill}, ${count(applied.webhooks, 'webhook')}; event ${applied.eventId}`,
    ...applied.accounts.map((account) => `  ${account.key}: ${account.id} ${account.name}`),
  ].join('\n');
}
