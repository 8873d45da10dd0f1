/**
 * Examples for the OpenAPI document, made from the schemas themselves: a field's own
 * `.meta({ example })` wins, then `examples`, `const`, `default`, the first `enum` value, and
 * finally a value that fits its type and format. Spectral checks each example against its schema.
 */
type Schema = Record<string, unknown>;
type Resolve = (ref: string) => Schema | undefined;

const BY_FORMAT: Record<string, string> = {
  uuid: '0193a3f4-5c1e-7a2b-9c3d-4e5f6a7b8c9d',
  'date-time': '2026-11-21T10:15:30.123Z',
  date: '2026-11-21',
  email: 'jan.kowalski@example.com',
  uri: 'https://example.com/webhooks/sandbank',
  url: 'https://example.com/webhooks/sandbank',
};

export function exampleOf(schema: Schema | undefined, resolve: Resolve, depth = 0): unknown {
  if (!schema || depth > 12) return undefined;
  if (typeof schema.$ref === 'string') return exampleOf(resolve(schema.$ref), resolve, depth + 1);
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (schema.const !== undefined) return schema.const;
  if (schema.default !== undefined) return schema.default;
  if (Array.isArray(schema.enum)) return schema.enum[0];
  const variants = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (variants) {
    const first = variants.find((variant) => variant.type !== 'null') ?? variants[0];
    return exampleOf(first, resolve, depth + 1);
  }
  if (Array.isArray(schema.allOf)) {
    return Object.assign({}, ...(schema.allOf as Schema[]).map((part) => exampleOf(part, resolve, depth + 1)));
  }
  const type = Array.isArray(schema.type) ? schema.type.find((item) => item !== 'null') : schema.type;
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([name, property]) => [name, exampleOf(property, resolve, depth + 1)]),
      );
    }
    case 'array':
      return [exampleOf(schema.items as Schema, resolve, depth + 1)];
    case 'string':
      return BY_FORMAT[String(schema.format)] ?? 'x'.repeat(Math.max(1, Number(schema.minLength ?? 6)));
    case 'integer':
    case 'number':
      return Math.min(Math.max(Number(schema.minimum ?? 1), 1), Number(schema.maximum ?? 1));
    case 'boolean':
      return true;
    case 'null':
      return null;
    default:
      return undefined;
  }
}

const INT32 = 2 ** 31;

/** Gives every integer a `format` (int32 when its bounds fit, else int64), as OWASP's rules ask. */
export function addIntegerFormats(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) addIntegerFormats(item);
    return;
  }
  if (!node || typeof node !== 'object') return;
  const schema = node as Schema;
  if (schema.type === 'integer' && schema.format === undefined) {
    const fits = Number(schema.minimum ?? -Infinity) >= -INT32 && Number(schema.maximum ?? Infinity) < INT32;
    schema.format = fits ? 'int32' : 'int64';
  }
  for (const value of Object.values(schema)) addIntegerFormats(value);
}
