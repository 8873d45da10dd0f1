/** `sandbank snapshots list|create`: snapshots of the world, to fork or restore. */
import { readFile } from 'node:fs/promises';
import type { components } from '@sandbank/client';
import type { Command } from 'commander';
import { CliError, count, EXIT, type Output } from '../output.ts';
import { type CommandContext, fromCwd, positiveInt } from './context.ts';

export function registerSnapshotCommands(program: Command, { output, api }: CommandContext): void {
  const snapshots = program.command('snapshots').description('snapshots of your world, to fork or restore');
  snapshots
    .command('list')
    .description('your snapshots, newest first')
    .option('--page <n>', 'the page', positiveInt, 1)
    .option('--limit <n>', 'per page, 1–200', positiveInt, 100)
    .action(async (options: { page: number; limit: number }) => {
      const out = output();
      const client = await api();
      const answer = await client.answer(
        client.rest.GET('/v1/sandbox/snapshots', { params: { query: { page: options.page, limit: options.limit } } }),
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
      const client = await api();
      const { data } = await client.answer(
        client.rest.POST('/v1/sandbox/snapshots', {
          // The API checks the scenario and the kinds; the CLI sends them as they were given.
          body: {
            name,
            ...(scenario === undefined ? {} : { scenario: scenario as Scenario }),
            ...(options.include === undefined ? {} : { include: options.include as Include }),
          },
        }),
      );
      out.result(data, `Snapshot taken: ${describeSnapshot(data, out)}`);
    });
}

type Snapshot = components['schemas']['Snapshot'];
type Scenario = components['schemas']['Scenario'];
type Include = components['schemas']['SnapshotInclude'][];

function describeSnapshot(snapshot: Snapshot, out: Output): string {
  const kept = [
    ...(snapshot.webhooks > 0 ? [count(snapshot.webhooks, 'webhook')] : []),
    ...(snapshot.apiKeys > 0 ? [count(snapshot.apiKeys, 'API key')] : []),
  ];
  const held = [
    count(snapshot.accounts, 'account'),
    count(snapshot.transactions, 'transaction'),
    count(snapshot.schedules, 'schedule'),
    ...kept,
  ];
  return `${out.colors.bold(snapshot.id)}  ${snapshot.name}  (${held.join(', ')}; taken at ${snapshot.takenAt})`;
}
