/** A zod schema as the JSON Schema of an MCP tool's input or output (an object at the top). */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';

type JsonSchemaObject = Tool['inputSchema'];

// draft-07, which the SDK's own client validates outputs with (Ajv); zod's transforms and
// coercions are described by their input or output side, whichever the schema is for.
export function jsonSchemaOf(schema: z.ZodType | undefined, io: 'input' | 'output'): JsonSchemaObject {
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
