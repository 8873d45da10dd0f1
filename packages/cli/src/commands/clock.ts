/** `sandbank clock show` and `sandbank clock advance`: the world's clock. */
import type { components } from '@sandbank/client';
import type { Command } from 'commander';
import { CliError, count, EXIT } from '../output.ts';
import type { CommandContext } from './context.ts';

export function registerClockCommands(program: Command, { output, api }: CommandContext): void {
  const clock = program.command('clock').description("your world's clock");
  clock
    .command('show')
    .description("the world's now")
    .action(async () => {
      const out = output();
      const client = await api();
      const { data } = await client.answer(client.rest.GET('/v1/clock'));
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
        client.answer(client.rest.POST('/v1/clock/advance', { body: { by: duration } })),
      );
      out.result(data, `Clock moved from ${data.from} to ${data.now}: ${describeFired(data)}`);
    });
}

type Advanced = components['schemas']['AdvanceResult']['data'];

/** What an advance fired, in words: "1 scheduled transaction fired, 2 pending transactions settled, 0 pending transactions expired; 3 events". */
function describeFired({ fired, events }: Advanced): string {
  const what = [
    `${count(fired.scheduled, 'scheduled transaction')} fired`,
    `${count(fired.settled, 'pending transaction')} settled`,
    `${count(fired.expired, 'pending transaction')} expired`,
  ];
  return `${what.join(', ')}; ${count(events, 'event')}`;
}
