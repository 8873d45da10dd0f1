/**
 * The faces' OpenAPI documents (`/faces/<face>/openapi.json`), built by the face kit from a face's
 * route table: zod schemas → JSON Schema (draft 2020-12, as OpenAPI 3.1 reads it), with the schemas
 * that carry a `meta({ id })` gathered as shared components and every `#/$defs/` reference pointed at
 * `#/components/schemas/`.
 */
import type { Express } from 'express';
import { z } from 'zod';
import type { Call, FaceDefinition, JsonSchemaOf } from './kit.ts';

interface SchemaCollector {
  /** The JSON Schema of `schema` (its named parts moved to the components). */
  json(schema: z.ZodType, io: 'input' | 'output'): Record<string, unknown>;
  /** The named schemas met so far. */
  components: Record<string, unknown>;
}

function schemaCollector(): SchemaCollector {
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
const withComponentRefs = <T>(document: T): T =>
  JSON.parse(JSON.stringify(document).replaceAll('"#/$defs/', '"#/components/schemas/'));

/** `GET /faces/<name>/openapi.json`: the face's document, built once. */
export function serveFaceDocument<C extends Call>(app: Express, face: FaceDefinition<C>, publicUrl: string): void {
  let document: string | undefined;
  app.get(`/faces/${face.name}/openapi.json`, (_req, res) => {
    document ??= JSON.stringify(buildFaceDocument(face, publicUrl));
    res.type('application/json').send(document);
  });
}

/** The face's OpenAPI 3.1 document, from its route table, its error schema and what routes add (`doc`). */
export function buildFaceDocument<C extends Call>(face: FaceDefinition<C>, publicUrl: string): Record<string, unknown> {
  const schemas = schemaCollector();
  const jsonOf: JsonSchemaOf = (schema, io = 'output') => schemas.json(schema, io);
  const json = (schema: z.ZodType, io: 'input' | 'output') => ({ 'application/json': { schema: schemas.json(schema, io) } });
  const { schema: errorSchema, statuses = {}, bodySchemas = {} } = face.errors;
  const scheme = face.document?.schemeName ?? 'face';
  const paths: Record<string, Record<string, unknown>> = {};
  for (const [key, route] of Object.entries(face.routes)) {
    const [method, path] = key.split(' ') as [string, string];
    const openPath = path.replace(/:(\w+)/g, '{$1}');
    const query = route.query
      ? (schemas.json(route.query, 'input') as { properties?: Record<string, unknown>; required?: string[] })
      : null;
    const errors = Object.entries(statuses).map(([status, description]) => {
      const schema = (route.body && bodySchemas[status]) || errorSchema;
      return [status, { description, ...(schema ? { content: json(schema, 'output') } : {}) }];
    });
    const { responses: docResponses, ...doc } = route.doc?.(jsonOf) ?? {};
    paths[openPath] ??= {};
    paths[openPath][method] = {
      operationId: `${method}_${path.replace(/[/:]+/g, '_').replace(/^_|_$/g, '')}`,
      summary: route.summary,
      ...(route.public ? { security: [] } : {}),
      parameters: [
        ...[...path.matchAll(/:(\w+)/g)].map(([, name]) => ({ name, in: 'path', required: true, schema: { type: 'string' } })),
        ...Object.entries(query?.properties ?? {}).map(([name, schema]) => ({
          name,
          in: 'query',
          required: query?.required?.includes(name) ?? false,
          schema,
        })),
      ],
      ...(route.body ? { requestBody: { required: true, content: json(route.body, 'input') } } : {}),
      ...doc,
      responses: {
        [route.status ?? 200]: { description: 'success', content: json(route.response, 'output') },
        ...Object.fromEntries(errors),
        ...docResponses,
      },
    };
  }
  return withComponentRefs({
    openapi: '3.1.0',
    info: face.info,
    servers: [{ url: `${publicUrl.replace(/\/$/, '')}${face.basePath}`, ...face.document?.server }],
    ...(face.document?.tags ? { tags: face.document.tags } : {}),
    security: [{ [scheme]: [] }],
    paths,
    components: {
      schemas: schemas.components,
      securitySchemes: { [scheme]: face.securityScheme, ...face.document?.schemes },
    },
  });
}
