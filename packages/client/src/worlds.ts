/**
 * Disposable worlds for test suites (docs/guides/testing-your-app.md).
 *
 * `withWorld(snapshotOrScenario, async (world) => …)` forks a fresh child world for one test, hands it
 * over with its own session, typed REST client and API key, and removes it when the callback settles
 * (passed or failed). It is plain async code: it works the same under vitest, jest, node:test or
 * mocha. `ensureSnapshot` is for a suite's global setup: it makes the snapshot once (or finds the one
 * of the same name that keeps the same `include`) so every test forks it in milliseconds.
 *
 * The parent is whoever `credential` names: an API key (`sbk_…`) or an access token of your Sandbank
 * user. Defaults come from the environment: `SANDBANK_URL` and `SANDBANK_API_KEY`.
 */
import type { components } from './openapi.gen.ts';
import { createRestClient, type SandbankRestClient } from './rest.ts';
import { createSession, type Session } from './session.ts';

export type Snapshot = components['schemas']['Snapshot'];
type WorldResource = components['schemas']['World'];
type CreatedWorldResource = components['schemas']['CreatedWorld'];
/** A webhook the world got from its snapshot (`include: ['webhooks']`), with its own new signing secret. */
export type WorldWebhook = CreatedWorldResource['webhooks'][number];
/** An API key the world got from its snapshot (`include: ['apiKeys']`): same name, a fresh key. */
export type WorldApiKey = CreatedWorldResource['apiKeys'][number];

export interface WorldOptions {
  /** The service, e.g. `http://localhost:3000`; default `SANDBANK_URL`. */
  baseUrl?: string;
  /** The parent's API key or access token; default `SANDBANK_API_KEY`. */
  credential?: string;
  /** How long the world may live should it not be removed (a crashed run): ISO 8601, PT1S–P7D; default PT15M. */
  ttl?: string;
  /** Keep the world after the callback (to look at it in the console); it still goes after its TTL. */
  keep?: boolean;
  /** The underlying fetch (default: the global one). */
  fetch?: typeof fetch;
}

/**
 * What a world is made from: a snapshot's id (a string, or `{ snapshotId }`), a `Snapshot` as
 * `ensureSnapshot` returns it, or a scenario document (`{ version, seed, accounts, … }` or `{ scenario }`).
 */
export type WorldSource =
  | string
  | { snapshotId: string }
  | Pick<Snapshot, 'id' | 'takenAt'>
  | { scenario: unknown }
  | ScenarioLike;

interface ScenarioLike {
  version: number;
  accounts: unknown[];
  [field: string]: unknown;
}

/** A child world, ready for one test. */
export interface SandboxWorld {
  /** The world's user id: its `owner` on the pull endpoint, its Plaid `client_id`. */
  readonly id: string;
  readonly email: string;
  readonly expiresAt: string;
  readonly baseUrl: string;
  readonly accessToken: string;
  readonly refreshToken: string;
  /** The world's API key (`key`, and `id`: the GoCardless `secret_id`). */
  readonly apiKey: { id: string; key: string };
  /** The snapshot's webhooks, registered anew in this world, each with its own secret (empty unless the snapshot kept them). */
  readonly webhooks: readonly WorldWebhook[];
  /** Fresh keys of the snapshot's API keys, by name (empty unless the snapshot kept them). */
  readonly apiKeys: readonly WorldApiKey[];
  /** A session of the world (it refreshes its access token by itself). */
  readonly session: Session;
  /** The REST client, typed from the OpenAPI document, signed in as the world. */
  readonly rest: SandbankRestClient;
  /** Removes the world and all its data now (withWorld does it for you). */
  remove(): Promise<void>;
}

/** A refusal of the Sandbank API, with its contract code and trace id. */
export class SandbankError extends Error {
  readonly status: number;
  readonly code: string;
  readonly traceId: string | undefined;

  constructor(status: number, code: string, message: string, traceId?: string) {
    super(`${status} ${code}: ${message}${traceId ? ` (trace ${traceId})` : ''}`);
    this.name = 'SandbankError';
    this.status = status;
    this.code = code;
    this.traceId = traceId;
  }
}

const DEFAULT_TTL = 'PT15M';

/** The suite's environment, as its CI sets it (the helper runs in Node, under a test runner). */
// biome-ignore lint/style/noProcessEnv: a test helper's documented defaults are SANDBANK_URL and SANDBANK_API_KEY
const fromEnvironment = (name: string): string | undefined => globalThis.process?.env[name];

function settings(options: WorldOptions) {
  const baseUrl = (options.baseUrl ?? fromEnvironment('SANDBANK_URL') ?? '').replace(/\/+$/, '');
  const credential = options.credential ?? fromEnvironment('SANDBANK_API_KEY');
  if (!baseUrl) throw new Error('withWorld: no Sandbank URL (pass baseUrl or set SANDBANK_URL)');
  if (!credential) throw new Error('withWorld: no credential (pass credential or set SANDBANK_API_KEY)');
  return { baseUrl, credential, fetch: options.fetch ?? globalThis.fetch };
}

async function call<T>(
  { baseUrl, credential, fetch }: ReturnType<typeof settings>,
  method: string,
  path: string,
  body?: unknown,
): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${credential}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  const parsed = text ? (JSON.parse(text) as { data?: T; code?: string; message?: string; traceId?: string }) : {};
  if (!response.ok) {
    throw new SandbankError(response.status, parsed.code ?? 'UNKNOWN', parsed.message ?? response.statusText, parsed.traceId);
  }
  return parsed.data as T;
}

function sourceBody(source: WorldSource): Record<string, unknown> {
  if (typeof source === 'string') return { snapshotId: source };
  if ('snapshotId' in source) return { snapshotId: source.snapshotId };
  if ('takenAt' in source && 'id' in source) return { snapshotId: source.id };
  if ('scenario' in source) return { scenario: source.scenario };
  return { scenario: source };
}

interface CreatedWorld {
  world: WorldResource;
  accessToken: string;
  refreshToken: string;
  apiKey: { id: string; key: string };
  /** Absent from servers older than the snapshot's `include`. */
  webhooks?: WorldWebhook[];
  apiKeys?: WorldApiKey[];
}

/** Creates a child world (remember to `remove()` it; `withWorld` does). */
export async function createWorld(source: WorldSource, options: WorldOptions = {}): Promise<SandboxWorld> {
  const parent = settings(options);
  const created = await call<CreatedWorld>(parent, 'POST', '/v1/worlds', {
    ...sourceBody(source),
    ttl: options.ttl ?? DEFAULT_TTL,
  });
  const session = createSession({
    baseUrl: parent.baseUrl,
    tokens: { accessToken: created.accessToken, refreshToken: created.refreshToken },
    fetch: parent.fetch,
  });
  let removed: Promise<void> | undefined;
  return {
    id: created.world.id,
    email: created.world.email,
    expiresAt: created.world.expiresAt,
    baseUrl: parent.baseUrl,
    accessToken: created.accessToken,
    refreshToken: created.refreshToken,
    apiKey: { id: created.apiKey.id, key: created.apiKey.key },
    webhooks: created.webhooks ?? [],
    apiKeys: created.apiKeys ?? [],
    session,
    rest: createRestClient(session),
    remove() {
      removed ??= call(parent, 'DELETE', `/v1/worlds/${created.world.id}`).then(
        () => undefined,
        (error: unknown) => {
          // Already gone (its TTL passed, or removed twice): nothing left to do.
          if (error instanceof SandbankError && error.status === 404) return;
          throw error;
        },
      );
      return removed;
    },
  };
}

/**
 * Runs `fn` with a fresh child world made from `source`, and removes the world afterwards, whether
 * `fn` passed or threw. Returns what `fn` returns.
 *
 * ```ts
 * it('shows the pending card payment', () =>
 *   withWorld(snapshot, async (world) => {
 *     const { data } = await world.rest.GET('/v1/accounts');
 *     expect(data?.data[0]?.heldAmount).toBeGreaterThan(0);
 *   }));
 * ```
 */
export async function withWorld<T>(
  source: WorldSource,
  fn: (world: SandboxWorld) => Promise<T> | T,
  options: WorldOptions = {},
): Promise<T> {
  const world = await createWorld(source, options);
  try {
    return await fn(world);
  } finally {
    if (!options.keep) await world.remove();
  }
}

export interface EnsureSnapshotOptions extends Omit<WorldOptions, 'ttl' | 'keep'> {
  /** The snapshot's name: an existing snapshot of this name and the same `include` is reused (unless `fresh`). */
  name: string;
  /** The scenario it keeps (a scenario document). Without one, your own world as it is now is kept. */
  scenario?: unknown;
  /** Make a new snapshot even if one of this name exists (the older ones are deleted). */
  fresh?: boolean;
  /**
   * Also keep your webhooks and/or API keys (never their secrets): every world forked from it gets
   * fresh ones of each, in `world.webhooks` / `world.apiKeys`. With a scenario, only `'webhooks'`.
   * Part of what is reused: a snapshot of this name that keeps something else is replaced (see `ensureSnapshot`).
   */
  include?: ('webhooks' | 'apiKeys')[];
}

/**
 * A suite's global setup: the snapshot named `name`, made once. An existing snapshot of that name
 * that keeps the same `include` (in any order; none = `[]`) is reused, so a suite that runs again (or
 * in parallel CI jobs) does not build it again.
 *
 * One of that name that keeps something else (the suite now asks for webhooks, say) is replaced, as
 * with `fresh`: a new snapshot is made, then the old ones of that name are deleted — a suite never
 * gets a snapshot without what it asked for. So two suites that ask for different `include` need
 * different names, or each replaces the other's. The scenario is not compared: change the name when
 * it changes (e.g. put a version or a hash of the scenario in it), or pass `fresh`.
 */
export async function ensureSnapshot(options: EnsureSnapshotOptions): Promise<Snapshot> {
  const parent = settings(options);
  const wanted = includeKey(options.include ?? []);
  const existing: Snapshot[] = [];
  for (let page = 1; page <= 50; page++) {
    const list = await listPage(parent, page);
    existing.push(...list.data.filter((snapshot) => snapshot.name === options.name));
    if (!list.meta.hasMore) break;
  }
  const reusable = existing.find((snapshot) => includeKey(keptKinds(snapshot)) === wanted);
  if (!options.fresh && reusable) return reusable;
  const snapshot = await call<Snapshot>(parent, 'POST', '/v1/sandbox/snapshots', {
    name: options.name,
    ...(options.scenario === undefined ? {} : { scenario: options.scenario }),
    ...(options.include === undefined ? {} : { include: options.include }),
  });
  for (const old of existing) await call(parent, 'DELETE', `/v1/sandbox/snapshots/${old.id}`);
  return snapshot;
}

/** The kinds, deduplicated, in one order: `['apiKeys', 'webhooks']` and `['webhooks', 'apiKeys']` are one. */
const includeKey = (kinds: readonly string[]): string => [...new Set(kinds)].sort().join(',');

/** What the snapshot keeps; a server older than `Snapshot.include` tells it only by what it kept rows of. */
function keptKinds(snapshot: Snapshot): readonly string[] {
  const { include } = snapshot as Partial<Pick<Snapshot, 'include'>>;
  if (include) return include;
  return [...(snapshot.webhooks > 0 ? ['webhooks'] : []), ...(snapshot.apiKeys > 0 ? ['apiKeys'] : [])];
}

async function listPage(parent: ReturnType<typeof settings>, page: number) {
  const response = await parent.fetch(`${parent.baseUrl}/v1/sandbox/snapshots?limit=200&page=${page}`, {
    headers: { authorization: `Bearer ${parent.credential}` },
  });
  const body = (await response.json()) as { data: Snapshot[]; meta: { hasMore: boolean }; code?: string; message?: string };
  if (!response.ok) throw new SandbankError(response.status, body.code ?? 'UNKNOWN', body.message ?? response.statusText);
  return body;
}
