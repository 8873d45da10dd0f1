/**
 * The providers' published OpenAPI documents (reference/README.md: Plaid's 2020-09-14, GoCardless
 * Bank Account Data v2 and Enable Banking's API reference), compiled with Ajv (Enable Banking's is
 * OpenAPI 3.1, so JSON Schema 2020-12: Ajv2020), and the checks the suite runs on every face answer and
 * Plaid webhook: `faceAnswerProblems` says what is wrong with one answer against its provider's
 * document (nothing for a path that is no face's). Each document is read once per process, on first
 * use. Ajv reads OpenAPI 3.0's `nullable`; other OpenAPI-only keywords (`example`, `x-*`, formats
 * such as `double`) are not checks.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import yaml from 'js-yaml';

const REFERENCE = path.resolve(import.meta.dirname, '../reference');

interface Operation {
  responses?: Record<string, { content?: Record<string, { schema?: Record<string, unknown> }> }>;
}
interface Document {
  info: { version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, { description?: string }> }> };
}

/**
 * OpenAPI 3.0's `nullable: true` as JSON Schema: `null` joins the type (and the enum), or, beside a
 * `$ref`/`allOf` without a type, the schema becomes `anyOf [null, the schema]` (Ajv 8 refuses
 * `nullable` without a type).
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

/** One provider's document with a validator per schema, compiled on first use. */
class ProviderDocument {
  readonly document: Document;
  private readonly ajv: Ajv;
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: Document, dialect: 'draft-07' | '2020-12' = 'draft-07') {
    this.document = document;
    this.ajv =
      dialect === '2020-12' ? new Ajv2020({ strict: false, allErrors: true }) : new Ajv({ strict: false, allErrors: true });
    (addFormatsModule as unknown as (ajv: Ajv) => void)(this.ajv);
    for (const format of ['double', 'float', 'int32', 'int64', 'ipv4', 'ipv6', 'uuid', 'date-time', 'date'])
      if (!this.ajv.formats[format]) this.ajv.addFormat(format, true);
    // Enable Banking's document names version-4 UUIDs `uuid4`.
    this.ajv.addFormat('uuid4', /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/i);
    this.ajv.addSchema({ ...(withNulls(document) as object), $id: 'doc' });
  }

  /** The problems of `body` against the schema at `pointer` (a JSON pointer into the document), none if valid. */
  problems(pointer: string, body: unknown): string[] {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.compile({ $ref: `doc#${pointer}` });
      this.validators.set(pointer, validate);
    }
    if (validate(body)) return [];
    return (validate.errors ?? []).map(
      (error) => `${error.instancePath || '/'} ${error.message ?? ''} ${JSON.stringify(error.params)}`,
    );
  }

  /** The pointer of the JSON schema of `method path`'s answer `status`, or null when the document lists none. */
  responsePointer(openPath: string, method: string, status: string): string | null {
    const escaped = openPath.replaceAll('~', '~0').replaceAll('/', '~1');
    const response = this.document.paths[openPath]?.[method]?.responses?.[status];
    if (!response?.content?.['application/json']?.schema) return null;
    return `/paths/${escaped}/${method}/responses/${status}/content/application~1json/schema`;
  }
}

let plaid: ProviderDocument | undefined;
let gocardless: ProviderDocument | undefined;
let enablebanking: ProviderDocument | undefined;

/** Plaid's 2020-09-14 document. */
export function plaidDocument(): ProviderDocument {
  plaid ??= new ProviderDocument(yaml.load(readFileSync(path.join(REFERENCE, 'plaid-2020-09-14.yml'), 'utf8')) as Document);
  return plaid;
}

/** GoCardless Bank Account Data's v2 document. */
export function gocardlessDocument(): ProviderDocument {
  gocardless ??= new ProviderDocument(
    JSON.parse(readFileSync(path.join(REFERENCE, 'gocardless-bankaccountdata-v2.json'), 'utf8')) as Document,
  );
  return gocardless;
}

/** Enable Banking's API reference (OpenAPI 3.1). */
export function enablebankingDocument(): ProviderDocument {
  enablebanking ??= new ProviderDocument(
    yaml.load(readFileSync(path.join(REFERENCE, 'enablebanking-api.yml'), 'utf8')) as Document,
    '2020-12',
  );
  return enablebanking;
}

/** `/sessions/<uuid>` → the document's `/sessions/{session_id}` (`/payments/<uuid>` likewise), `/accounts/<uid>/balances` → `/accounts/{account_id}/balances`. */
function enablebankingOpenPath(facePath: string): string {
  return facePath
    .replace(/\/$/, '')
    .replace(/^\/sessions\/[^/]+$/, '/sessions/{session_id}')
    .replace(/^\/payments\/[^/]+$/, '/payments/{payment_id}')
    .replace(/^\/accounts\/[^/]+\//, '/accounts/{account_id}/');
}

/**
 * Problems of an Enable Banking answer against the document's answer for its path, method and
 * status; an error the document does not list for the path (an unknown path's 404, a 409) is still
 * its `ErrorResponse`.
 */
export function enablebankingAnswerProblems(facePath: string, method: string, status: number, body: unknown): string[] {
  const doc = enablebankingDocument();
  const openPath = enablebankingOpenPath(facePath);
  const pointer =
    doc.responsePointer(openPath, method, String(status)) ?? (status >= 400 ? '/components/schemas/ErrorResponse' : null);
  if (!pointer) return [`Enable Banking's document has no ${status} answer for ${method.toUpperCase()} ${openPath}`];
  return doc.problems(pointer, body);
}

/** Sandbank's own sandbox endpoints on the Plaid face (docs/faces/plaid.md), which Plaid's document cannot describe. */
const SANDBANK_PLAID_ENDPOINTS = new Set(['/sandbox/item/repair']);

/** Problems of a Plaid answer: a 200 against the path's 200 schema, anything else against `PlaidError`. */
export function plaidAnswerProblems(plaidPath: string, status: number, body: unknown): string[] {
  const doc = plaidDocument();
  if (status !== 200) return doc.problems('/components/schemas/PlaidError', body);
  if (SANDBANK_PLAID_ENDPOINTS.has(plaidPath)) return [];
  const pointer = doc.responsePointer(plaidPath, 'post', '200');
  if (!pointer) return [`Plaid's document has no 200 answer for ${plaidPath}`];
  return doc.problems(pointer, body);
}

/** Plaid's webhook schemas by `TYPE: CODE` (from each schema's documented webhook_type and webhook_code). */
function webhookSchemas(): Map<string, string> {
  const byKey = new Map<string, string>();
  const named = (description: string | undefined) => /^`([A-Z_]+)`/.exec(description ?? '')?.[1];
  for (const [name, schema] of Object.entries(plaidDocument().document.components.schemas)) {
    if (name.startsWith('Processor')) continue;
    const type = named(schema.properties?.webhook_type?.description);
    const code = named(schema.properties?.webhook_code?.description);
    if (type && code && !byKey.has(`${type}: ${code}`)) byKey.set(`${type}: ${code}`, name);
  }
  return byKey;
}
let webhooks: Map<string, string> | undefined;

/** Problems of a Plaid webhook body against the schema Plaid publishes for its type and code. */
export function plaidWebhookProblems(body: { webhook_type?: unknown; webhook_code?: unknown }): string[] {
  webhooks ??= webhookSchemas();
  const key = `${String(body.webhook_type)}: ${String(body.webhook_code)}`;
  const name = webhooks.get(key);
  if (!name) return [`Plaid's document has no webhook ${key}`];
  return plaidDocument().problems(`/components/schemas/${name}`, body);
}

/**
 * GoCardless refuses a body field keyed by the field (`{"max_historical_days": [{summary, detail}],
 * "status_code": 400}`, `{"institution_id": {summary, detail}, …}`, `{"redirect": ["This field is
 * required."], …}`): the live service and the document's own examples, not its `ErrorResponse`.
 */
function isFieldError(body: unknown): boolean {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return false;
  const { status_code: status, ...fields } = body as Record<string, unknown>;
  const entry = (value: unknown) =>
    typeof value === 'string' ||
    (value !== null &&
      typeof value === 'object' &&
      Object.keys(value).sort().join() === 'detail,summary' &&
      Object.values(value).every((text) => typeof text === 'string'));
  const values = Object.values(fields);
  return (
    status === 400 &&
    values.length > 0 &&
    values.every((value) =>
      Array.isArray(value) ? value.length > 0 && value.every(entry) : entry(value) && typeof value !== 'string',
    )
  );
}

/** `/accounts/<uuid>/details` → the document's `/api/v2/accounts/{id}/details/`. */
function gocardlessOpenPath(facePath: string): string {
  const trimmed = facePath.endsWith('/') ? facePath : `${facePath}/`;
  return `/api/v2${trimmed.replace(/^\/(accounts|agreements\/enduser|requisitions|institutions)\/[^/]+\//, '/$1/{id}/')}`;
}

/**
 * Problems of a GoCardless answer against the document's answer for its path, method and status. A
 * 400 may also be the field-keyed form; a 400 of `POST /token/new/`, which the live service sends
 * and the document does not list, is checked as any 400.
 */
export function gocardlessAnswerProblems(facePath: string, method: string, status: number, body: unknown): string[] {
  const doc = gocardlessDocument();
  const openPath = gocardlessOpenPath(facePath);
  if (status === 400 && isFieldError(body)) return [];
  // An error the document does not list for the path (an unknown path's 404, a 415) is still its ErrorResponse.
  const pointer =
    doc.responsePointer(openPath, method, String(status)) ?? (status >= 400 ? '/components/schemas/ErrorResponse' : null);
  if (!pointer) return [`GoCardless's document has no ${status} answer for ${method.toUpperCase()} ${openPath}`];
  return doc.problems(pointer, body);
}

/**
 * What is wrong with one answer of the app against its provider's document: a Plaid answer under
 * `/plaid/`, a GoCardless one under `/gocardless/api/v2/`, an Enable Banking one under
 * `/enablebanking/`; nothing for any other path.
 */
export function faceAnswerProblems(method: string, url: string, status: number, body: unknown): string[] {
  const pathname = new URL(url, 'http://face').pathname;
  if (pathname.startsWith('/plaid/')) return plaidAnswerProblems(pathname.slice('/plaid'.length), status, body);
  if (pathname.startsWith('/gocardless/api/v2/') && !pathname.includes('/openapi')) {
    return gocardlessAnswerProblems(pathname.slice('/gocardless/api/v2'.length), method.toLowerCase(), status, body);
  }
  if (pathname.startsWith('/enablebanking/')) {
    return enablebankingAnswerProblems(pathname.slice('/enablebanking'.length), method.toLowerCase(), status, body);
  }
  return [];
}
