/** Registering, listing and deleting a user's webhooks. Another user's webhook does not exist (404). */
import { randomBytes } from 'node:crypto';
import { type EntityManager, WebhookEntity } from '@sandbank/db';
import type { EventType, WebhookFaults } from '@sandbank/schemas';
import { checkWebhookUrl, sealSecret } from '@sandbank/webhooks';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';
import { uuidv7 } from '../../lib/ids.ts';
import { userNow } from '../clock/clock.ts';
import { checkUserLimit } from '../limits/per-user-limits.ts';

export interface RegisterWebhookParams {
  userId: string;
  url: string;
  secret: string;
  events: EventType[];
  clientId: string;
}

export async function registerWebhook(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  { userId, url, secret, events, clientId }: RegisterWebhookParams,
): Promise<WebhookEntity> {
  const check = await checkWebhookUrl(url, { allowPrivate: deps.config.webhooks.allowPrivateUrls });
  if (!check.ok) {
    throw new AppError('VALIDATION_ERROR', 'The webhook URL is not allowed', {
      details: [{ path: 'url', message: check.reason }],
    });
  }
  const sealed = sealSecret(secret, deps.secrets.encryptionKeys);
  return em.transactional(async (tx) => {
    await checkUserLimit(tx, { userId, resource: 'webhooks', limit: deps.config.limits.webhooks });
    const now = await userNow(tx, userId); // the world's time (deliveries and their signatures keep wall time)
    const webhook = tx.create(WebhookEntity, {
      createdAt: now,
      updatedAt: now,
      id: uuidv7(),
      user: userId,
      url: check.url.toString(),
      clientId,
      events: [...events],
      secretCiphertext: sealed.ciphertext,
      secretKeyId: sealed.keyId,
    });
    await tx.flush();
    return webhook;
  });
}

export interface ListWebhooksParams {
  userId: string;
  clientId?: string | undefined;
  page: number;
  limit: number;
}

export async function listWebhooks(em: EntityManager, { userId, clientId, page, limit }: ListWebhooksParams) {
  const [items, total] = await em.findAndCount(
    WebhookEntity,
    { user: userId, deletedAt: null, ...(clientId === undefined ? {} : { clientId }) },
    { orderBy: { createdAt: 'desc', id: 'desc' }, limit, offset: (page - 1) * limit },
  );
  return { items, total };
}

export async function getOwnedWebhook(em: EntityManager, userId: string, webhookId: string): Promise<WebhookEntity> {
  const webhook = await em.findOne(WebhookEntity, { id: webhookId, user: userId, deletedAt: null });
  if (!webhook) throw notFound('Webhook');
  return webhook;
}

export interface PatchWebhookParams {
  userId: string;
  webhookId: string;
  url?: string | undefined;
  events?: EventType[] | undefined;
  status?: 'active' | 'disabled' | undefined;
  /** A new secret: the old one keeps signing too until the overlap (WEBHOOK_SECRET_OVERLAP_HOURS) ends. */
  secret?: string | undefined;
  /** The webhook lab's faults; null turns them off. A seed is chosen when none is given. */
  faults?: WebhookFaults | null | undefined;
}

/**
 * Changes a webhook's URL (checked like a new one), event kinds, status (re-enabling clears the
 * reason it was disabled) or secret. A new secret rotates the Standard Webhooks way: the current
 * one becomes the previous one, and deliveries carry both signatures for the overlap.
 */
export async function patchWebhook(
  em: EntityManager,
  deps: Pick<Deps, 'config' | 'secrets'>,
  { userId, webhookId, url, events, status, secret, faults }: PatchWebhookParams,
): Promise<WebhookEntity> {
  const webhook = await getOwnedWebhook(em, userId, webhookId);
  if (url !== undefined) {
    const check = await checkWebhookUrl(url, { allowPrivate: deps.config.webhooks.allowPrivateUrls });
    if (!check.ok) {
      throw new AppError('VALIDATION_ERROR', 'The webhook URL is not allowed', {
        details: [{ path: 'url', message: check.reason }],
      });
    }
    webhook.url = check.url.toString();
  }
  if (events !== undefined) webhook.events = [...events];
  if (status !== undefined && status !== webhook.status) {
    webhook.status = status;
    webhook.disabledReason = status === 'disabled' ? 'Disabled by its owner' : null;
  }
  if (secret !== undefined) {
    const sealed = sealSecret(secret, deps.secrets.encryptionKeys);
    webhook.previousSecretCiphertext = webhook.secretCiphertext;
    webhook.previousSecretKeyId = webhook.secretKeyId;
    webhook.secretCiphertext = sealed.ciphertext;
    webhook.secretKeyId = sealed.keyId;
    webhook.secretRotatedAt = new Date();
  }
  if (faults !== undefined) {
    webhook.faults = faults === null ? null : { ...faults, seed: faults.seed ?? randomBytes(8).toString('hex') };
  }
  await em.flush();
  return webhook;
}

/** Soft delete: deliveries and their attempts stay for the record; waiting retries are dropped by the worker. */
export async function deleteWebhook(em: EntityManager, userId: string, webhookId: string): Promise<void> {
  const webhook = await getOwnedWebhook(em, userId, webhookId);
  webhook.deletedAt = new Date();
  await em.flush();
}
