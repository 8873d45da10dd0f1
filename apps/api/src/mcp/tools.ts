/**
 * The MCP tools, generated from the one router: every procedure of the areas an agent drives a
 * world with becomes a tool named `<area>_<procedure>`, its input schema the procedure's zod input
 * (as JSON Schema), its output schema the procedure's zod output, its title and description the
 * procedure's OpenAPI summary and description. A new procedure in one of these areas is a new
 * tool with nothing to write here. One tool is written by hand, statement files
 * (statement-tool.ts), because they are the statements face's, not a procedure's.
 *
 * Left out: `auth` (logging in, sessions) and `integrations` (API keys, the partner pull): an
 * agent works inside a world with credentials it was given, it does not mint or revoke them.
 */

import { appRouter, type Meta } from '@sandbank/core';
import { z } from 'zod';
import { callProcedure, type McpTool } from './caller.ts';
import { jsonSchemaOf } from './json-schema.ts';
import { statementTool } from './statement-tool.ts';

/** The router areas served as tools, in the order the tool list shows them. */
const TOOL_AREAS = [
  'accounts',
  'transactions',
  'simulations',
  'schedules',
  'clock',
  'scenarios',
  'worlds',
  'sandbox',
  'events',
  'webhooks',
  'plaid',
  'gocardless',
  'simplefin',
] as const;

/**
 * Tools that change money or remove data, beyond every DELETE: an agent's client asks before it
 * runs them (`destructiveHint`). Everything else that is not a GET only adds (`destructiveHint: false`).
 */
const DESTRUCTIVE = new Set([
  'transactions.postTransaction',
  'transactions.patchTransaction',
  'transactions.voidTransaction',
  'transactions.reverseTransaction',
  'simulations.simulateTransaction',
  'accounts.closeAccount',
  'clock.advanceClock',
  'scenarios.applyScenario',
  'worlds.restoreSnapshot',
  'worlds.removeWorld',
  'sandbox.resetSandbox',
  'plaid.removeItem',
  'plaid.resetItemLogin',
  'gocardless.decideRequisition',
  'schedules.createSchedule',
]);

interface ProcedureDef {
  meta?: Meta;
  inputs: z.ZodType[];
  output?: z.ZodType;
}

const isEmptyInput = (schema: z.ZodType | undefined) =>
  schema === undefined || schema instanceof z.ZodVoid || schema instanceof z.ZodUndefined;

function toolName(path: string): string {
  return path.replace('.', '_');
}

/** Every tool, read from the router once per call (the caller keeps the list). */
export function listMcpTools(): McpTool[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>;
  const tools: McpTool[] = [];
  for (const area of TOOL_AREAS) {
    for (const [path, procedure] of Object.entries(procedures)) {
      if (!path.startsWith(`${area}.`)) continue;
      const { meta, inputs, output } = procedure._def;
      const openapi = meta?.openapi;
      if (inputs.length > 1) throw new Error(`${path}: a tool takes one input schema`);
      const input = inputs[0];
      const readOnly = openapi?.method === 'GET';
      const destructive = openapi?.method === 'DELETE' || DESTRUCTIVE.has(path);
      const description = [openapi?.summary, openapi?.description].filter(Boolean).join('\n\n');
      const takesNoInput = isEmptyInput(input);
      tools.push({
        call: (caller, args) => callProcedure(caller, path, takesNoInput ? undefined : (args ?? {})),
        definition: {
          name: toolName(path),
          title: openapi?.summary ?? path,
          description: openapi ? `${description}\n\nREST: ${openapi.method} ${openapi.path}` : description,
          inputSchema: takesNoInput ? { type: 'object', properties: {} } : jsonSchemaOf(input, 'input'),
          outputSchema: jsonSchemaOf(output, 'output'),
          annotations: {
            title: openapi?.summary ?? path,
            readOnlyHint: readOnly,
            destructiveHint: !readOnly && destructive,
            idempotentHint: readOnly || openapi?.method === 'DELETE',
            openWorldHint: false,
          },
        },
      });
    }
  }
  // The one tool that is not a procedure: statement files are the statements face's (apps/api).
  tools.push(statementTool);
  return tools;
}
