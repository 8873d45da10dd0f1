/**
 * `sandbank`: the Sandbank command line (docs/guides/webhooks.md). Commands: login, logout, listen, trigger, clock
 * advance, scenario apply, statement, worlds fork/list/remove, snapshots list/create, mcp. `--help` on every command; `--json` for scripts; exit codes in
 * output.ts. Parsed with commander; each group of commands is a module of commands/ that registers them on the program,
 * in the order `--help` lists them.
 */
import { Command, CommanderError, Option } from 'commander';
import { openApi } from './api.ts';
import { registerClockCommands } from './commands/clock.ts';
import type { CommandContext, GlobalOptions } from './commands/context.ts';
import { registerEventCommands } from './commands/events.ts';
import { registerMcpCommand } from './commands/mcp.ts';
import { registerPayCommand } from './commands/pay.ts';
import { registerScenarioCommands } from './commands/scenario.ts';
import { registerSessionCommands } from './commands/session.ts';
import { registerSnapshotCommands } from './commands/snapshots.ts';
import { registerStatementCommand } from './commands/statement.ts';
import { registerWorldCommands } from './commands/worlds.ts';
import { createOutput, EXIT, reportFailure } from './output.ts';

function buildProgram(): Command {
  const program = new Command('sandbank')
    .description('The Sandbank command line: log in, forward events to localhost, trigger events, move the clock, fork worlds')
    .version('0.1.0')
    .addOption(new Option('--api-url <url>', 'the API (default: the logged-in one, or SANDBANK_API_URL)').env('SANDBANK_API_URL'))
    .option('--json', 'print results as JSON (one document per line)', false)
    .option('--no-color', 'no colors (also when not a terminal, or with NO_COLOR)')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  const globals = () => program.opts<GlobalOptions>();
  const context: CommandContext = {
    globals,
    output: () => createOutput({ json: globals().json, color: globals().color }),
    api: () => openApi(globals().apiUrl),
  };

  registerSessionCommands(program, context);
  registerEventCommands(program, context);
  registerPayCommand(program, context);
  registerClockCommands(program, context);
  registerScenarioCommands(program, context);
  registerWorldCommands(program, context);
  registerSnapshotCommands(program, context);
  registerStatementCommand(program, context);
  registerMcpCommand(program, context);
  return program;
}

export async function run(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return EXIT.ok;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end "with an error" that is not one.
      if (error.exitCode === 0) return EXIT.ok;
      return EXIT.usage;
    }
    return reportFailure(error, program.opts<GlobalOptions>().json === true);
  }
}
