/** Registering, listing and deleting a user's webhooks. Another user's webhook does not exist (404). */
import { type EntityManager, WebhookEntity } from '@sandbank/db';
import type { EventType } from '@sandbank/schemas';
import { checkWebhookUrl, sealSecret } from '@sandbank/webhooks';
import { v7 as uuidv7 } from 'uuid';
import type { Deps } from '../../deps.ts';
import { AppError, notFound } from '../../errors.ts';

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
  const webhook = em.create(WebhookEntity, {
    id: uuidv7(),
    user: userId,
    url: check.url.toString(),
    clientId,
    events: [...events],
    secretCiphertext: sealed.ciphertext,
    secretKeyId: sealed.keyId,
  });
  await em.flush();
  return webhook;
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

/** Soft delete: deliveries and their attempts stay for the record; waiting retries are dropped by the worker. */
export async function deleteWebhook(em: EntityManager, userId: string, webhookId: string): Promise<void> {
  const webhook = await getOwnedWebhook(em, userId, webhookId);
  webhook.deletedAt = new Date();
  await em.flush();
}
