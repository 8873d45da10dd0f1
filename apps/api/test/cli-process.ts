/** Runs the real `sandbank` CLI (packages/cli) as a child process (Node 24 from the checkout), with its own config directory. */

import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitUntil } from '@sandbank/testing';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const main = path.join(root, 'packages/cli/src/bin.ts');
const node = existsSync(path.join(root, 'node_modules/node/bin/node'))
  ? path.join(root, 'node_modules/node/bin/node')
  : process.execPath;

/** The Node and the entry point the tests run the CLI with, for clients that spawn it themselves (an MCP client). */
export const cliCommand = { node, main };

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The test's environment (so a faked clock, scripts/test-at-instants.ts, reaches the CLI too) without the user's own SANDBANK_*. */
export function cliEnv(configDir: string, extra: Record<string, string> = {}): Record<string, string> {
  const inherited = Object.fromEntries(
    Object.entries(process.env).filter(
      (entry): entry is [string, string] => !entry[0].startsWith('SANDBANK_') && entry[1] !== undefined,
    ),
  );
  return { ...inherited, SANDBANK_CONFIG_DIR: configDir, NO_COLOR: '1', ...extra };
}

/** Runs `sandbank …args` to its end. */
export function sandbank(args: string[], env: Record<string, string>, stdin?: string): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(node, [main, ...args], { env, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin ?? '');
  });
}

export interface Background {
  child: ChildProcess;
  stdout: () => string;
  stderr: () => string;
  /** Resolves when the output contains `text`. */
  waitFor(text: string, timeoutMs?: number): Promise<void>;
}

/** Starts `sandbank …args` and leaves it running. */
export function startSandbank(args: string[], env: Record<string, string>): Background {
  const child = spawn(node, [main, ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += chunk));
  child.stderr?.on('data', (chunk) => (stderr += chunk));
  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    async waitFor(text, timeoutMs = 15_000) {
      await waitUntil(
        () => {
          if (child.exitCode !== null && !`${stdout}${stderr}`.includes(text)) {
            throw new Error(`no "${text}" in:\n${stdout}\n${stderr}`);
          }
          return `${stdout}${stderr}`.includes(text);
        },
        { timeoutMs, what: `"${text}" in:\n${stdout}\n${stderr}` },
      );
    },
  };
}
