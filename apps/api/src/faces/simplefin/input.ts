/**
 * What a SimpleFIN request carries: the claim code of `POST /claim/:code`, and `GET /accounts`'s query
 * parameters (SimpleFIN protocol 1.0 and the 2.0 draft): `start-date`, `end-date`, `pending`,
 * `account` (repeated), `balances-only`, `version`. Parsed by hand, in the protocol's order, each bad
 * value a plain-text 400 that names it.
 */
import type { Call } from '../kit.ts';
import { sfErrors } from './errors.ts';

/** A call past the access URL's credentials and their rate limit. */
export type SimplefinCall = Call & { credential: { userId: string; keyId: string } };

/** A claim code as issued (256 random bits, base64url); anything else is refused before the database. */
export const CLAIM_CODE_PATTERN = '^[A-Za-z0-9_-]{16,128}$';
const CLAIM_CODE = new RegExp(CLAIM_CODE_PATTERN);

/** The path's claim code, or the protocol's 403. */
export function claimCode(call: Call): string {
  const code = String(call.req.params.code ?? '');
  if (!CLAIM_CODE.test(code)) throw sfErrors.forbidden();
  return code;
}

export const SUPPORTED_VERSIONS = ['1.0', '2.0'] as const;

/** At most 11 digits of seconds (year 5138), so every instant stays a plain ISO timestamp. */
export const UNIX_SECONDS_PATTERN = '^\\d{1,11}(\\.\\d+)?$';

/**
 * A Unix timestamp in seconds (clients may send a fraction) as an instant; undefined when absent,
 * null when malformed. Rounded up to the millisecond our dates have, which keeps both bounds exact:
 * a date is on or after `start` and before `end` exactly when it is so against the rounded value.
 */
function unixInstant(value: unknown): Date | undefined | null {
  if (value === undefined) return undefined;
  const match = typeof value === 'string' ? /^(\d{1,11})(?:\.(\d+))?$/.exec(value) : null;
  if (!match) return null;
  const fraction = match[2] ?? '';
  const ms = Number(match[1]) * 1000 + Number(fraction.slice(0, 3).padEnd(3, '0'));
  return new Date(/[1-9]/.test(fraction.slice(3)) ? ms + 1 : ms);
}

/** `version`: the protocol's query parameter (1 when absent; the server picks the default). */
const VERSIONS = new Map<unknown, 1 | 2>([
  ['1', 1],
  ['1.0', 1],
  ['2', 2],
  ['2.0', 2],
]);
export const VERSION_VALUES = [...VERSIONS.keys()] as string[];

/** `pending` and `balances-only` are on for `1` (the protocol's) or `true`. */
const flag = (value: unknown) => value === '1' || value === 'true';
export const FLAG_VALUES = ['1', 'true'];

export interface AccountsQuery {
  from: Date | undefined;
  before: Date | undefined;
  version: 1 | 2;
  pending: boolean;
  accountIds: string[];
  balancesOnly: boolean;
}

/** The query as the domain reads it, or a plain-text 400 that names the bad parameter. */
export function parseAccountsQuery(query: Record<string, unknown>): AccountsQuery {
  const from = unixInstant(query['start-date']);
  const before = unixInstant(query['end-date']);
  if (from === null) throw sfErrors.badRequest('start-date must be a Unix timestamp in seconds');
  if (before === null) throw sfErrors.badRequest('end-date must be a Unix timestamp in seconds');
  const version = query.version === undefined ? 1 : VERSIONS.get(query.version);
  if (!version) throw sfErrors.badRequest(`version must be one of ${SUPPORTED_VERSIONS.join(', ')}`);
  const account = query.account;
  const accountIds = (Array.isArray(account) ? account : account === undefined ? [] : [account]).map(String);
  return { from, before, version, pending: flag(query.pending), accountIds, balancesOnly: flag(query['balances-only']) };
}
