/**
 * What the command modules share: the global options, the output and the API (each read when a
 * command runs, after parsing), and the option parsers more than one of them uses.
 */
import path from 'node:path';
import { InvalidArgumentError } from 'commander';
import type { Api } from '../api.ts';
import { cliEnv } from '../env.ts';
import type { Output } from '../output.ts';

export interface GlobalOptions {
  json: boolean;
  color: boolean;
  apiUrl?: string;
}

export interface CommandContext {
  globals: () => GlobalOptions;
  output: () => Output;
  api: () => Promise<Api>;
}

/** Files named on the command line are read from where the command was typed (pnpm runs scripts at the root). */
export const fromCwd = (file: string) => path.resolve(cliEnv.initCwd ?? process.cwd(), file);

export const positiveInt = (value: string) => {
  const number = Number(value);
  if (!Number.isInteger(number) || number < 1 || number > 1_000_000) throw new InvalidArgumentError('a whole number ≥ 1');
  return number;
};
