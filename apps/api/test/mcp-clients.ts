/**
 * MCP clients for the tests, the SDK's own `Client`: over streamable HTTP to the test app's
 * `POST /mcp`, and over stdio to the real `sandbank mcp` process (packages/cli) relaying to it.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { cliCommand } from './cli-process.ts';

export type McpTransportName = 'http' | 'stdio';

export async function httpClient(apiUrl: string, bearer: string): Promise<Client> {
  const client = new Client({ name: 'sandbank-test', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL('/mcp', apiUrl), {
      requestInit: { headers: { authorization: `Bearer ${bearer}` } },
    }),
  );
  return client;
}

/** `sandbank mcp` with `env` (the CLI's: a config directory with a saved session, or SANDBANK_API_KEY). */
export async function stdioClient(env: Record<string, string>, args: string[] = []): Promise<Client> {
  const client = new Client({ name: 'sandbank-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({ command: cliCommand.node, args: [cliCommand.main, ...args, 'mcp'], env, stderr: 'pipe' }),
  );
  return client;
}

/** A tool call's outcome: the structured result, or our error body from a tool error. */
export async function callTool(
  client: Client,
  name: string,
  args: Record<string, unknown> = {},
): Promise<
  { ok: true; value: Record<string, unknown> } | { ok: false; error: { code: string; message: string; traceId: string } }
> {
  const result = (await client.callTool({ name, arguments: args })) as CallToolResult;
  if (result.isError) {
    const [first] = result.content;
    if (first?.type !== 'text') throw new Error(`a tool error without text: ${JSON.stringify(result)}`);
    return { ok: false, error: JSON.parse(first.text) };
  }
  if (!result.structuredContent) throw new Error(`no structuredContent: ${JSON.stringify(result)}`);
  return { ok: true, value: result.structuredContent };
}
