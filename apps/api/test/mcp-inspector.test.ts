/**
 * The MCP Inspector's own command line (`mcp-inspector --cli`, scripts/ensure-mcp-inspector.sh
 * installs it) lists Sandbank's tools over both transports: streamable HTTP to `POST /mcp` with a
 * bearer, and stdio to `sandbank mcp` (the real CLI process, logged in). An independent client:
 * its tools/list must name every tool the server generates, with the same schemas.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listMcpTools } from '../src/mcp/tools.ts';
import { cliCommand, cliEnv, sandbank } from './cli-process.ts';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../../..');

let app: TestApp;
let user: TestUser;
let configDir: string;
let inspector: string;

beforeAll(async () => {
  const dir = execFileSync('bash', [path.join(root, 'scripts/ensure-mcp-inspector.sh')], { encoding: 'utf8' }).trim();
  inspector = path.join(dir, 'node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');
  app = await startTestApp();
  user = await app.createUser();
  configDir = await mkdtemp(path.join(os.tmpdir(), 'sandbank-mcp-inspector-'));
  const login = await sandbank(
    ['login', '--api-url', app.url, '--email', user.email, '--password-stdin'],
    cliEnv(configDir),
    user.password,
  );
  expect(login.code, login.stderr).toBe(0);
}, 900_000);

afterAll(async () => {
  await app?.close();
  if (configDir) await rm(configDir, { recursive: true, force: true });
});

async function inspectorToolsList(args: string[], env: Record<string, string> = cliEnv(configDir)): Promise<Tool[]> {
  const { stdout } = await run(cliCommand.node, [inspector, '--cli', '--method', 'tools/list', ...args], {
    env,
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024,
  });
  return (JSON.parse(stdout) as { tools: Tool[] }).tools;
}

const expected = () =>
  listMcpTools().map(({ definition }) => ({
    name: definition.name,
    inputSchema: definition.inputSchema,
    outputSchema: definition.outputSchema,
  }));

const shape = (tools: Tool[]) => tools.map(({ name, inputSchema, outputSchema }) => ({ name, inputSchema, outputSchema }));

it('lists the tools over streamable HTTP with a bearer', { timeout: 90_000 }, async () => {
  const tools = await inspectorToolsList([
    `${app.url}/mcp`,
    '--transport',
    'http',
    '--header',
    `Authorization: Bearer ${user.accessToken}`,
  ]);
  expect(shape(tools)).toEqual(expected());
});

it('lists the tools over stdio, from sandbank mcp', { timeout: 90_000 }, async () => {
  const tools = await inspectorToolsList([
    '-e',
    `SANDBANK_CONFIG_DIR=${configDir}`,
    '--',
    cliCommand.node,
    cliCommand.main,
    'mcp',
  ]);
  expect(shape(tools)).toEqual(expected());
});
