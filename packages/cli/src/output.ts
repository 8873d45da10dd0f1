/**
 * What the CLI prints and how it ends. Colors only on a terminal (picocolors also honours NO_COLOR
 * and FORCE_COLOR) and never with `--json`; with `--json` every result is one JSON document (one
 * per line for `listen`). Exit codes scripts can trust:
 *
 *   0 done · 1 the API refused or the command failed · 2 usage (bad arguments) ·
 *   3 not logged in, or the session expired · 4 the API could not be reached
 */
import pc from 'picocolors';
import yoctoSpinner from 'yocto-spinner';

export const EXIT = { ok: 0, failed: 1, usage: 2, auth: 3, unreachable: 4 } as const;

/** A failure that ends the command with its exit code and message. */
export class CliError extends Error {
  readonly exitCode: number;
  readonly code: string | undefined;
  constructor(message: string, exitCode: number = EXIT.failed, code?: string) {
    super(message);
    this.exitCode = exitCode;
    this.code = code;
  }
}

export interface Output {
  json: boolean;
  colors: ReturnType<typeof pc.createColors>;
  /** A result: JSON with --json, else the human text. */
  result(value: unknown, human: string): void;
  /** A line for people (stderr with --json, so stdout stays parseable). */
  info(text: string): void;
  /**
   * Runs `work` with a spinner on stderr saying what it waits for — only for a person at a terminal:
   * never with --json, never when stderr is not a TTY (scripts and CI see only the result).
   */
  progress<T>(text: string, work: () => Promise<T>): Promise<T>;
}

export function createOutput({ json, color }: { json: boolean; color: boolean }): Output {
  const colors = pc.createColors(color && !json && pc.isColorSupported && process.stdout.isTTY === true);
  return {
    json,
    colors,
    result(value, human) {
      process.stdout.write(json ? `${JSON.stringify(value)}\n` : `${human}\n`);
    },
    info(text) {
      (json ? process.stderr : process.stdout).write(`${text}\n`);
    },
    async progress(text, work) {
      if (json || process.stderr.isTTY !== true) return work();
      const spinner = yoctoSpinner({ text, stream: process.stderr }).start();
      try {
        const result = await work();
        spinner.stop();
        return result;
      } catch (error) {
        spinner.stop();
        throw error;
      }
    },
  };
}

/** A count with its noun, singular for one: `count(1, 'account')` is "1 account", `count(3, 'entry', 'entries')` "3 entries". */
export function count(n: number, singular: string, plural = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

/** Prints the failure (JSON on stdout with --json) and sets the exit code. */
export function reportFailure(error: unknown, json: boolean): number {
  const failure =
    error instanceof CliError
      ? error
      : new CliError(error instanceof Error ? error.message : String(error), EXIT.failed, 'INTERNAL');
  if (json) process.stdout.write(`${JSON.stringify({ error: { code: failure.code ?? 'FAILED', message: failure.message } })}\n`);
  else process.stderr.write(`${pc.createColors(process.stderr.isTTY === true).red('error')}: ${failure.message}\n`);
  return failure.exitCode;
}
