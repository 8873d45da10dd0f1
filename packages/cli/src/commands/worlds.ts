/** `sandbank worlds fork|list|remove`: disposable child worlds. */
import type { Command } from 'commander';
import { type CommandContext, positiveInt } from './context.ts';

export function registerWorldCommands(program: Command, { output, api }: CommandContext): void {
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
        client.answer(
          client.rest.POST('/v1/worlds', {
            body: { snapshotId: snapshot, ...(options.ttl === undefined ? {} : { ttl: options.ttl }) },
          }),
        ),
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
      const client = await api();
      const answer = await client.answer(
        client.rest.GET('/v1/worlds', { params: { query: { page: options.page, limit: options.limit } } }),
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
      const client = await api();
      const { data } = await client.answer(client.rest.DELETE('/v1/worlds/{id}', { params: { path: { id } } }));
      out.result(data, `Removed world ${out.colors.bold(data.id)}`);
    });
}
