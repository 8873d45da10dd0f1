/**
 * Sandbank's MCP server for one request's caller: the tools generated from the router
 * (tools.ts), the world's resources and the docs (resources.ts), the budgeting-app prompt
 * (prompts.ts). Built on the SDK's low-level `Server` so that every refusal, a schema violation
 * included, is a tool result in our error contract (`isError: true`), as the procedure gave it.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import type { ErrorBody } from '@sandbank/schemas';
import type { McpCaller, McpTool } from './caller.ts';
import { BUDGETING_PROMPT, budgetingPrompt } from './prompts.ts';
import { listResources, RESOURCE_TEMPLATES, readResource } from './resources.ts';

const SERVER_INFO = { name: 'sandbank', title: 'Sandbank', version: '0.1.0' };

const INSTRUCTIONS =
  'Sandbank is a sandbox bank: every tool acts on your own world (its accounts, transactions, clock, events and webhooks) and nothing else. ' +
  'Amounts are integers in minor units. Errors come back as {traceId, code, message, details}. ' +
  'Read sandbank://docs/README.md for the map of the documentation.';

function toolError(error: ErrorBody): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(error) }] };
}

export function createMcpServer(tools: McpTool[], caller: McpCaller): Server {
  const byName = new Map(tools.map((tool) => [tool.definition.name, tool]));
  const server = new Server(SERVER_INFO, {
    capabilities: { tools: {}, resources: {}, prompts: {} },
    instructions: INSTRUCTIONS,
  });

  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: tools.map((tool) => tool.definition) }));

  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const tool = byName.get(request.params.name);
    if (!tool) {
      return toolError({ traceId: caller.requestId, code: 'NOT_FOUND', message: `No tool ${request.params.name}` });
    }
    const outcome = await tool.call(caller, request.params.arguments);
    if (!outcome.ok) return toolError(outcome.error);
    const structuredContent = outcome.value as Record<string, unknown>;
    return { content: [{ type: 'text', text: JSON.stringify(structuredContent) }], structuredContent };
  });

  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(caller) }));
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES }));
  server.setRequestHandler(ReadResourceRequestSchema, async (request) => {
    const outcome = await readResource(caller, request.params.uri);
    if (!outcome.found) throw new McpError(ErrorCode.InvalidParams, outcome.message);
    return { contents: [{ uri: request.params.uri, mimeType: outcome.mimeType, text: outcome.text }] };
  });

  server.setRequestHandler(ListPromptsRequestSchema, () => ({ prompts: [BUDGETING_PROMPT] }));
  server.setRequestHandler(GetPromptRequestSchema, (request) => {
    if (request.params.name !== BUDGETING_PROMPT.name)
      throw new McpError(ErrorCode.InvalidParams, `No prompt ${request.params.name}`);
    return budgetingPrompt(request.params.arguments);
  });
  return server;
}
