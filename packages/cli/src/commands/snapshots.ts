/** `sandbank snapshots list|create`: snapshots of the world, to fork or restore. */
import { readFile } from 'node:fs/promises';
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
