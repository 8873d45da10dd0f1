/**
 * A fork of a snapshot that kept webhooks or API keys (`include`, snapshots.ts): each is made anew in
 * the child, set-wise (one INSERT … SELECT per table, new ids from the fork's prefix and the row's
 * `ord`, as copy-world.ts does), with a FRESH secret. The snapshot never held the parent's secret
 * material, so a child can never sign or authenticate as its parent:
 *
 * - a webhook keeps its URL, event kinds, client id, status and faults (their seed too: the same
 *   faults on the same events) and gets a new signing secret (`whsec_` + 256 random bits), sealed
 *   like any other, without a previous one;
 * - an API key keeps its name and age, and its expiry moved by the fork's shift; its key is new
 *   (`sbk_…`, stored as a SHA-256 hash), never used.
 *
 * The secrets exist in plain text only in the fork's answer, as a new webhook's and key's do.
 */
import type { EntityManager } from '@sandbank/db';
import { sealSecret } from '@sandbank/webhooks';
import type { Deps } from '../../deps.ts';
import { generateOpaqueToken, sha256 } from '../auth/tokens.ts';
import { API_KEY_PREFIX, VISIBLE_PREFIX_LENGTH } from '../integrations/api-keys.ts';
import { COPY_KEYS, type CopyTarget, idOf } from './copy-world.ts';

/** A child's webhook secret: printable ASCII, as a registered one must be (webhook-fields.ts). */
const WEBHOOK_SECRET_PREFIX = 'whsec_';

interface ForkedWebhookRow {
  id: string;
  url: string;
  events: string[];
  client_id: string;
  status: 'active' | 'disabled';
  secret: string;
}

interface ForkedApiKeyRow {
  id: string;
  name: string;
  prefix: string;
  created_at: Date | string;
  expires_at: Date | string | null;
  key: string;
}

export interface ForkedCredentials {
  webhooks: ForkedWebhookRow[];
  apiKeys: ForkedApiKeyRow[];
}

/** The i-th kept row (1-based, in `ord` order) meets the i-th fresh secret. */
const numbered = (table: string) =>
  `(select s.*, row_number() over (order by s.ord) as i from ${table} s where s.snapshot_id = (select snapshot_id from k)) s`;

/** Makes the snapshot's kept webhooks and API keys anew in the target world (inside the fork's transaction). */
export async function forkCredentials(
  tx: EntityManager,
  deps: Pick<Deps, 'secrets'>,
  target: CopyTarget,
  counts: { webhooks: number; apiKeys: number },
): Promise<ForkedCredentials> {
  const keys = [target.snapshotId, target.userId, target.prefix, Math.round(target.shiftMs)];
  const result: ForkedCredentials = { webhooks: [], apiKeys: [] };
  if (counts.webhooks > 0) {
    const secrets = new Map<string, string>();
    const sealed = Array.from({ length: counts.webhooks }, (_, index) => {
      const secret = generateOpaqueToken(WEBHOOK_SECRET_PREFIX);
      const { ciphertext, keyId } = sealSecret(secret, deps.secrets.encryptionKeys);
      secrets.set(ciphertext, secret);
      return { i: index + 1, ciphertext, key_id: keyId };
    });
    const rows = await tx.execute<(Omit<ForkedWebhookRow, 'secret'> & { secret_ciphertext: string })[]>(
      `${COPY_KEYS}
       insert into webhooks (id, user_id, client_id, url, events, secret_ciphertext, secret_key_id, status, disabled_reason,
                             faults, created_at, updated_at)
       select ${idOf('s.ord')}, k.user_id, s.client_id, s.url, s.events, f.ciphertext, f.key_id, s.status, s.disabled_reason,
              s.faults, s.created_at + k.shift, s.created_at + k.shift
         from k, ${numbered('world_snapshot_webhooks')}
         join jsonb_to_recordset(?::jsonb) as f (i bigint, ciphertext text, key_id text) on f.i = s.i
       returning id, url, events, client_id, status, secret_ciphertext`,
      [...keys, JSON.stringify(sealed)],
    );
    result.webhooks = rows
      .map(({ secret_ciphertext, ...row }) => ({ ...row, secret: secrets.get(secret_ciphertext) ?? '' }))
      .sort((a, b) => a.id.localeCompare(b.id));
  }
  if (counts.apiKeys > 0) {
    const plain = new Map<string, string>();
    const fresh = Array.from({ length: counts.apiKeys }, (_, index) => {
      const key = generateOpaqueToken(API_KEY_PREFIX);
      const hash = sha256(key);
      plain.set(hash, key);
      return { i: index + 1, prefix: key.slice(0, VISIBLE_PREFIX_LENGTH), hash };
    });
    const rows = await tx.execute<(Omit<ForkedApiKeyRow, 'key'> & { key_hash: string })[]>(
      `${COPY_KEYS}
       insert into api_keys (id, user_id, name, prefix, key_hash, created_at, expires_at)
       select ${idOf('s.ord')}, k.user_id, s.name, f.prefix, f.hash, s.created_at + k.shift, s.expires_at + k.shift
         from k, ${numbered('world_snapshot_api_keys')}
         join jsonb_to_recordset(?::jsonb) as f (i bigint, prefix text, hash text) on f.i = s.i
       returning id, name, prefix, created_at, expires_at, key_hash`,
      [...keys, JSON.stringify(fresh)],
    );
    result.apiKeys = rows
      .map(({ key_hash, ...row }) => ({ ...row, key: plain.get(key_hash) ?? '' }))
      .sort((a, b) => a.id.localeCompare(b.id));
  }
  return result;
}
