/**
 * The MCP tools, generated from the one router: every procedure of the areas an agent drives a
 * world with becomes a tool named `<area>_<procedure>`, its input schema the procedure's zod input
 * (as JSON Schema), its output schema the procedure's zod output, its title and description the
 * procedure's OpenAPI summary and description. A new procedure in one of these areas is a new
 * tool with nothing to write here.
 *
 * Left out: `auth` (logging in, sessions) and `integrations` (API keys, the partner pull): an
 * agent works inside a world with credentials it was given, it does not mint or revoke them.
 */

import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { appRouter, type Meta } from '@sandbank/core';
import { z } from 'zod';

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

export interface McpTool {
  /** The router path the tool calls, e.g. `accounts.getAccount`. */
  path: string;
  /** True when the procedure takes no input (the tool's arguments are then ignored). */
  takesNoInput: boolean;
  definition: Tool;
}

interface ProcedureDef {
  meta?: Meta;
  inputs: z.ZodType[];
  output?: z.ZodType;
}

type JsonSchemaObject = Tool['inputSchema'];

// draft-07, which the SDK's own client validates outputs with (Ajv); zod's transforms and
// coercions are described by their input or output side, whichever the schema is for.
function jsonSchemaOf(schema: z.ZodType | undefined, io: 'input' | 'output'): JsonSchemaObject {
  if (!schema) return { type: 'object', properties: {} };
  const json = z.toJSONSchema(schema, { io, target: 'draft-07', unrepresentable: 'any' }) as Record<string, unknown>;
  delete json.$schema;
  // A schema registered under an id (`.meta({ id })`) is a `$ref` at the top; MCP wants the object there.
  const ref = typeof json.$ref === 'string' ? /^#\/definitions\/(.+)$/.exec(json.$ref)?.[1] : undefined;
  if (ref !== undefined) {
    const { $ref: _ref, definitions, ...rest } = json as { $ref: string; definitions: Record<string, Record<string, unknown>> };
    Object.assign(json, { ...rest, ...definitions[ref], definitions });
    delete json.$ref;
  }
  if (json.type !== 'object')
    throw new Error(`A tool's ${io} must be an object schema, got ${JSON.stringify(json).slice(0, 200)}`);
  return json as JsonSchemaObject;
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
      tools.push({
        path,
        takesNoInput: isEmptyInput(input),
        definition: {
          name: toolName(path),
          title: openapi?.summary ?? path,
          description: openapi ? `${description}\n\nREST: ${openapi.method} ${openapi.path}` : description,
          inputSchema: isEmptyInput(input) ? { type: 'object', properties: {} } : jsonSchemaOf(input, 'input'),
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
  return tools;
}
