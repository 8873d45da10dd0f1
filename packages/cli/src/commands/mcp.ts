/**
 * `sandbank mcp`: Sandbank's MCP server on stdio, for an agent's config file (docs/guides/mcp.md).
 * It relays each MCP message to the API's `POST /mcp` with the caller's bearer and each answer
 * back, so the tools, resources and prompts are the API's own and every call is authorised,
 * limited and confined to the caller's world there, as a REST call is. The credential is
 * `SANDBANK_API_KEY` if set, else the session `sandbank login` saved (`@sandbank/client`'s session:
 * refreshed when the API refuses the access token, the new tokens saved).
 * stdout carries only MCP messages; what goes wrong is told on stderr.
 */

import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { isJSONRPCRequest, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Command } from 'commander';
import { cliFetch, DEFAULT_API_URL, openApi } from '../api.ts';
import { cliEnv } from '../env.ts';
import type { CommandContext } from './context.ts';

/** The JSON-RPC error code of a message the API did not take (the SDK's "connection closed" range). */
const RELAY_FAILED = -32000;

/** The API and a fetch that signs each relayed message: with the API key, or as the saved session. */
async function credentials(apiUrlOption: string | undefined): Promise<{ apiUrl: string; fetch: typeof fetch }> {
  const apiKey = cliEnv.apiKey;
  if (apiKey) {
    const withKey: typeof fetch = (url, init) => {
      const headers = new Headers(init?.headers);
      headers.set('authorization', `Bearer ${apiKey}`);
      return cliFetch(url, { ...init, headers });
    };
    return { apiUrl: apiUrlOption ?? DEFAULT_API_URL, fetch: withKey };
  }
  const api = await openApi(apiUrlOption);
  return { apiUrl: api.apiUrl, fetch: api.fetch };
}

export function registerMcpCommand(program: Command, { globals }: CommandContext): void {
  program
    .command('mcp')
    .description("serve Sandbank's MCP tools on stdio for a coding agent (SANDBANK_API_KEY, or the logged-in session)")
    .action(async () => {
      const { apiUrl, fetch } = await credentials(globals().apiUrl);
      const remote = new StreamableHTTPClientTransport(new URL('/mcp', apiUrl), { fetch });
      const local = new StdioServerTransport();
      const answerFailure = (message: JSONRPCMessage, error: unknown) => {
        const text = error instanceof Error ? error.message : String(error);
        process.stderr.write(`sandbank mcp: ${apiUrl}/mcp: ${text}\n`);
        if (isJSONRPCRequest(message)) {
          void local.send({ jsonrpc: '2.0', id: message.id, error: { code: RELAY_FAILED, message: `Sandbank API: ${text}` } });
        }
      };
      local.onmessage = (message) => {
        remote.send(message).catch((error: unknown) => answerFailure(message, error));
      };
      remote.onmessage = (message) => {
        void local.send(message);
      };
      remote.onerror = (error) => process.stderr.write(`sandbank mcp: ${error.message}\n`);
      const closed = new Promise<void>((resolve) => {
        local.onclose = resolve;
      });
      // The agent ends the server by closing its stdin; the SDK's transport does not watch for that itself.
      process.stdin.once('end', () => void local.close());
      await remote.start();
      await local.start();
      await closed;
      await remote.close();
    });
}
