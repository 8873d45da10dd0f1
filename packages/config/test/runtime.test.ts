/**
 * The production Node flags live in SERVER_NODE_FLAGS (`pnpm start`, the bench); the Docker image
 * and each app's own `start` script spell them out again. They must stay the same flags.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { SERVER_NODE_FLAGS } from '../src/index.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The flags before the entry of a `node … <entry>` command line. */
function flagsBefore(commandLine: string, entry: string): string[] {
  const words = commandLine.trim().split(/\s+/);
  expect(words[0]).toBe('node');
  expect(words.at(-1)).toBe(entry);
  return words.slice(1, -1);
}

describe('the production Node flags', () => {
  it.each(['api', 'worker'] as const)('are the same for the %s in the Dockerfile', (app) => {
    const cmd = read('docker/Dockerfile')
      .split('\n')
      .find((line) => line.startsWith('CMD ') && line.includes(`apps/${app}/dist/main.js`));
    expect(cmd, `a CMD that runs apps/${app}/dist/main.js`).toBeDefined();
    const words = JSON.parse(cmd?.slice(4) ?? '[]') as string[];
    expect(flagsBefore(words.join(' '), `apps/${app}/dist/main.js`)).toEqual(SERVER_NODE_FLAGS[app]);
  });

  it.each(['api', 'worker'] as const)("are the same in the %s's own start script", (app) => {
    const { scripts } = JSON.parse(read(`apps/${app}/package.json`)) as { scripts: Record<string, string> };
    expect(flagsBefore(scripts.start ?? '', 'src/main.ts')).toEqual(SERVER_NODE_FLAGS[app]);
  });
});
