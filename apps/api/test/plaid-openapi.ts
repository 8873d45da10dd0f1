/**
 * Plaid's published OpenAPI document (2020-09-14, as vendored on npm by `@opensdks/sdk-plaid`, MIT,
 * whose `plaid.oas.json` is Plaid's `plaid/plaid-openapi` `2020-09-14.yml` as JSON) compiled with Ajv:
 * every response of the face is checked against the schema Plaid publishes for that path's 200, and
 * every error against `PlaidError`. Ajv reads OpenAPI 3.0's `nullable`; the document's other
 * OpenAPI-only keywords (`example`, `deprecated`, `x-*`, formats such as `double`) are not checks.
 */
import { createRequire } from 'node:module';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { expect } from 'vitest';
import { RESPONSES } from '../src/faces/plaid/responses.ts';

const require = createRequire(import.meta.url);
const document = require('@opensdks/sdk-plaid/plaid.oas.json') as {
  info: { version: string };
  paths: Record<string, { post?: { responses: Record<string, { content?: Record<string, { schema: { $ref: string } }> }> } }>;
};

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: `null` joins the type (and the enum), or, beside a
 * `$ref`/`allOf` without a type, becomes `anyOf [null, the schema]`.
 */
function withNulls(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withNulls);
  if (node === null || typeof node !== 'object') return node;
  const { nullable, ...rest } = node as Record<string, unknown>;
  const out: Record<string, unknown> = Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, withNulls(value)]));
  if (nullable !== true) return out;
  if (typeof out.type === 'string') {
    out.type = [out.type, 'null'];
    if (Array.isArray(out.enum)) out.enum = [...out.enum, null];
    return out;
  }
  return { anyOf: [{ type: 'null' }, out] };
}

const ajv = new Ajv({ strict: false, allErrors: true });
(addFormatsModule as unknown as (ajv: Ajv) => void)(ajv);
for (const format of ['double', 'float', 'int32', 'int64', 'ipv4', 'ipv6', 'uuid'])
  if (!ajv.formats[format]) ajv.addFormat(format, true);
ajv.addSchema({ ...(withNulls(document) as object), $id: 'plaid' });

const validators = new Map<string, ValidateFunction>();

function validatorOf(ref: string): ValidateFunction {
  let validate = validators.get(ref);
  if (!validate) {
    validate = ajv.compile({ $ref: `plaid${ref}` });
    validators.set(ref, validate);
  }
  return validate;
}

export const plaidDocumentVersion = document.info.version;

/** Fails unless `body` is valid as Plaid's 200 response of `path`. */
export function expectPlaidResponse(path: string, body: unknown): void {
  const ref = document.paths[path]?.post?.responses['200']?.content?.['application/json']?.schema.$ref;
  if (!ref) throw new Error(`Plaid's document has no 200 response for ${path}`);
  const validate = validatorOf(ref);
  expect(validate(body), `${path}: ${JSON.stringify(validate.errors)}`).toBe(true);
  // And as the face's own document describes it (the zod schemas /faces/plaid/openapi.json is made from).
  const own = RESPONSES[path]?.safeParse(body);
  expect(own?.success, `${path} (our schema): ${JSON.stringify(own?.error?.issues)}`).toBe(true);
}

/** Fails unless `body` is a valid PlaidError with this code. */
export function expectPlaidError(body: unknown, code: string): void {
  const validate = validatorOf('#/components/schemas/PlaidError');
  expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
  expect((body as { error_code: string }).error_code, JSON.stringify(body)).toBe(code);
}
