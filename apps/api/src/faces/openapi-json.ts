/**
 * What the faces' OpenAPI documents share: zod schemas → JSON Schema (draft 2020-12, as OpenAPI 3.1
 * reads it), with the schemas that carry a `meta({ id })` gathered as shared components and every
 * `#/$defs/` reference pointed at `#/components/schemas/`.
 */
import { z } from 'zod';

export interface SchemaCollector {
  /** The JSON Schema of `schema` (its named parts moved to the components). */
  json(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown>;
  /** The named schemas met so far. */
  components: Record<string, unknown>;
}

export function schemaCollector(): SchemaCollector {
  const components: Record<string, unknown> = {};
  return {
    components,
    json(schema, io) {
      const { $defs, ...top } = z.toJSONSchema(schema, { io, target: 'draft-2020-12', unrepresentable: 'any' }) as {
        $defs?: Record<string, unknown>;
      };
      Object.assign(components, $defs);
      return top;
    },
  };
}

/** The document with zod's `#/$defs/X` references turned into `#/components/schemas/X`. */
export const withComponentRefs = <T>(document: T): T =>
  JSON.parse(JSON.stringify(document).replaceAll('"#/$defs/', '"#/components/schemas/'));
