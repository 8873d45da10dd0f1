/**
 * A fork of a snapshot that kept webhooks or API keys (`include`, snapshots.ts): each is made anew in
 * the child, set-wise (one INSERT … SELECT per table, new ids from the fork's prefix and the row's
 * `ord`, as copy-world.ts does), with a FRESH secret. The snapshot never held the parent's secret
 * material, so a child can never sign or authenticate as its parent:
 *
 * - a webhook keeps its URL, event kinds, client id, status and faults (their seed too: the same
 *   faults on the same events) and gets a new signing secret (`whsec_` + base64 of 256 random bits), sealed
 *   like any other, without a previous one;
 * - an API key keeps its name and age, and its expiry moved by the fork's shift; its key is new
 *   (`sbk_…`, stored as a SHA-256 hash), never used.
 *
 * The secrets exist in plain text only in the fork's answer, as a new webhook's and key's do.
 *
 * The child's keys stay under LIMIT_API_KEYS like any user's: the kept keys that are active in the
 * child (an expired one moves with the shift and stays expired) plus the world's own key must fit, or
 * the fork is refused (422 LIMIT_EXCEEDED) before the snapshot's rows are copied, and its transaction
 * leaves nothing behind. A parent at its limit that keeps all its keys is one over: the check counts the
 * rows just written with the query every key creation counts with. Nothing races it: no one else can
 * add a key to the child before the fork commits.
 */
import type { EntityManager } from '@sandbank/db';
import { newStandardSecret, sealSecret } from '@sandbank/webhooks';
import type { Deps } from '../../deps.ts';
import { AppError } from '../../errors.ts';
import { generateOpaqueToken, sha256 } from '../auth/tokens.ts';
import { API_KEY_PREFIX, VISIBLE_PREFIX_LENGTH } from '../integrations/api-keys.ts';
import { countLimited } from '../limits/queries.ts';
import type { CopyTarget } from './copy-world.ts';
import { type ForkedApiKeyRow, type ForkedWebhookRow, insertForkedApiKeys, insertForkedWebhooks } from './queries/forks.ts';

export interface ForkedCredentials {
  webhooks: ForkedWebhookRow[];
  apiKeys: ForkedApiKeyRow[];
}

/**
 * Makes the snapshot's kept webhooks and API keys anew in the target world (inside the fork's
 * transaction, before the copy); LIMIT_EXCEEDED when the kept webhooks exceed LIMIT_WEBHOOKS, or the kept keys and
 * the world's own one exceed LIMIT_API_KEYS.
 */
export async function forkCredentials(
  tx: EntityManager,
  deps: Pick<Deps, 'secrets' | 'config'>,
  target: CopyTarget,
  counts: { webhooks: number; apiKeys: number },
): Promise<ForkedCredentials> {
  const result: ForkedCredentials = { webhooks: [], apiKeys: [] };
  // The child has no webhooks of its own yet: the kept ones alone must fit (the limit may have fallen since the snapshot).
  const { webhooks: webhookLimit } = deps.config.limits;
  if (counts.webhooks > webhookLimit) {
    throw new AppError('LIMIT_EXCEEDED', `The snapshot keeps ${counts.webhooks} webhooks; the limit is ${webhookLimit}`, {
      details: [{ path: 'webhooks', message: `At most ${webhookLimit} webhooks per user (LIMIT_WEBHOOKS)` }],
    });
  }
  if (counts.webhooks > 0) {
    const secrets = new Map<string, string>();
    const sealed = Array.from({ length: counts.webhooks }, (_, index) => {
      const secret = newStandardSecret();
      const { ciphertext, keyId } = sealSecret(secret, deps.secrets.encryptionKeys);
      secrets.set(ciphertext, secret);
      return { i: index + 1, ciphertext, key_id: keyId };
    });
    const rows = await insertForkedWebhooks(tx, target, sealed);
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
    const rows = await insertForkedApiKeys(tx, target, fresh);
    result.apiKeys = rows
      .map(({ key_hash, ...row }) => ({ ...row, key: plain.get(key_hash) ?? '' }))
      .sort((a, b) => a.id.localeCompare(b.id));
    await checkKeysFit(tx, target.userId, deps.config.limits.apiKeys);
  }
  return result;
}

/** The child's active keys, and the world's own key it gets next (worlds.ts), within LIMIT_API_KEYS. */
async function checkKeysFit(tx: EntityManager, userId: string, limit: number): Promise<void> {
  const kept = await countLimited(tx, userId, 'apiKeys');
  if (kept + 1 > limit) {
    throw new AppError(
      'LIMIT_EXCEEDED',
      `The snapshot keeps ${kept} active API keys; with the world's own key that is ${kept + 1}, and the limit is ${limit}`,
      {
        details: [
          { path: 'apiKeys', message: `At most ${limit} active API keys per user (LIMIT_API_KEYS), the world's own included` },
        ],
      },
    );
  }
}
