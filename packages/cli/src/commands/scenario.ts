/** `sandbank scenario apply`: a scenario document applied to the world. */
import { readFile } from 'node:fs/promises';
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
        client.call<{ data: Applied }>('POST', '/v1/scenarios/apply', {
          scenario: document,
          ...(options.reset ? { reset: true } : {}),
        }),
      );
      out.result(data, `Scenario applied: ${describeApplied(data)}`);
    });
}

interface Applied {
  accounts: { key: string; id: string; name: string }[];
  transactions: number;
  schedules: number;
  scheduleRuns: { booked: number; failed: number };
  webhooks: number;
  eventId: string;
}

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
