/**
 * `deliver-webhook`: one HTTP attempt of one delivery. Builds the body from the event, signs it
 * (Standard Webhooks scheme, the event id as idempotency key), POSTs it, and records the attempt.
 * A failure schedules the next try from the retry schedule as a new job (the job itself
 * succeeds), so graphile-worker's own retries only cover crashes and unexpected errors; after the
 * last try the delivery fails. 410 Gone disables the webhook. A job whose user already has all
 * its slots in flight in this worker goes back to the queue untouched (`user-slots.ts`).
 */
import type { Config, Secrets } from '@sandbank/config';
import { buildEventBody } from '@sandbank/schemas';
import {
  type DeliveryJobPayload,
  DeliveryJobPayloadSchema,
  openSecret,
  retryDelaySeconds,
  signatureHeaders,
} from '@sandbank/webhooks';
import type { JobHelpers, Task } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Agent } from 'undici';
import { type AttemptOutcome, postWebhook } from '../delivery/http-client.ts';
import { plaidBody, plaidHeaders } from '../delivery/plaid.ts';
import {
  type AttemptRecord,
  abandonDelivery,
  type DeliveryTarget,
  loadDeliveryTarget,
  putBackDeliveryJob,
  recordAttempt,
} from '../delivery/store.ts';
import type { UserSlots } from '../delivery/user-slots.ts';

const USER_AGENT = 'Sandbank-Webhooks/1.0 (+https://github.com/sandbank)';

export interface DeliverWebhookDeps {
  config: Config;
  secrets: Secrets;
  pool: pg.Pool;
  agent: Agent;
  logger: Logger;
  slots: UserSlots;
}

export function deliverWebhookTask(deps: DeliverWebhookDeps): Task {
  const { pool, logger, slots } = deps;
  const attemptDelivery = deliveryAttempt(deps);
  return async (rawPayload, helpers) => {
    const payload = DeliveryJobPayloadSchema.parse(rawPayload);
    const { userId } = payload;
    // A job from before jobs named their user is not capped.
    if (userId === undefined) return attemptDelivery(payload, helpers);
    // Synchronous, right after the fetch: no other job of this worker can take the slot in between.
    if (!slots.tryTake(userId)) {
      const queued = await putBackDeliveryJob(pool, { ...payload, userId });
      return logger.debug({ deliveryId: payload.deliveryId, userId, queued }, "user's slots taken; job put back");
    }
    try {
      return await attemptDelivery(payload, helpers);
    } finally {
      slots.release(userId);
    }
  };
}

function deliveryAttempt({ config, secrets, pool, agent, logger }: DeliverWebhookDeps) {
  const policy = { allowPrivate: config.webhooks.allowPrivateUrls };
  return async ({ deliveryId, attempt, cycle }: DeliveryJobPayload, helpers: JobHelpers) => {
    const log = logger.child({ deliveryId, attempt, cycle, jobId: helpers.job.id });
    const target = await loadDeliveryTarget(pool, deliveryId, config.webhooks.secretOverlapSeconds);
    if (!target) return log.warn('delivery no longer exists; nothing to send');
    // A redelivery started a newer cycle: its own job sends; this one is superseded.
    if (target.cycle > cycle) return log.info({ current: target.cycle }, 'job of an older delivery cycle; nothing to send');
    // This cycle already ended (e.g. the job's completion was lost after a success): never send twice.
    if (target.status !== 'pending') return log.info({ status: target.status }, 'delivery already completed; nothing to send');
    if (!target.active) {
      await abandonDelivery(pool, deliveryId);
      return log.info('webhook disabled or deleted; delivery closed without a request');
    }
    const { plaidItemId } = target;
    const signed = plaidItemId
      ? await plaidSigned(pool, secrets, { ...target, plaidItemId })
      : await standardSigned(pool, deliveryId, target, secrets, log);
    if (!signed) return;
    const { body, headers } = signed;
    const startedAt = new Date();
    const outcome = await postWebhook(agent, {
      url: target.url,
      headers,
      body,
      timeoutMs: config.webhooks.timeoutMs,
      policy,
      shutdown: helpers.abortSignal,
    });
    const record = decide(outcome, attempt, config.webhooks.retryScheduleSeconds);
    const attemptOf = { deliveryId, cycle, webhookId: target.webhookId, userId: target.userId, startedAt };
    await recordAttempt(pool, { ...attemptOf, ...outcome, ...record });
    log.info(
      { statusCode: outcome.statusCode, durationMs: outcome.durationMs, error: outcome.error, outcome: record.outcome },
      'webhook attempt',
    );
  };
}

type Decision = Pick<AttemptRecord, 'outcome' | 'nextAttemptAt' | 'nextJobAttempt' | 'disableReason'>;

/** What follows an attempt: success, the next try on the schedule, or the end. */
export function decide(outcome: AttemptOutcome, attempt: number, scheduleSeconds: readonly number[], now = Date.now()): Decision {
  if (outcome.error === null) return { outcome: 'succeeded', nextAttemptAt: null, nextJobAttempt: null, disableReason: null };
  if (outcome.statusCode === 410) {
    return { outcome: 'failed', nextAttemptAt: null, nextJobAttempt: null, disableReason: 'The receiver answered 410 Gone' };
  }
  const delay = retryDelaySeconds(attempt, scheduleSeconds);
  if (delay === null) return { outcome: 'failed', nextAttemptAt: null, nextJobAttempt: null, disableReason: null };
  return { outcome: 'pending', nextAttemptAt: new Date(now + delay * 1000), nextJobAttempt: attempt + 1, disableReason: null };
}

interface Signed {
  body: string;
  headers: Record<string, string>;
}

/** Our event body (the event log's builder, so it equals GET /v1/events/:id byte for byte), Standard Webhooks signed; null if the event is malformed. */
async function standardSigned(
  pool: pg.Pool,
  deliveryId: string,
  target: DeliveryTarget,
  secrets: Secrets,
  log: Logger,
): Promise<Signed | null> {
  const parsed = buildEventBody({
    id: target.eventId,
    type: target.eventType,
    created_at: target.eventCreatedAt,
    payload: target.eventPayload,
  });
  if (!parsed.success) {
    // A malformed event would fail the same way on every retry: close the delivery and say why.
    await abandonDelivery(pool, deliveryId);
    log.error({ issues: parsed.error.issues }, 'event does not match the webhook body schema; delivery closed');
    return null;
  }
  const event = parsed.data;
  const body = JSON.stringify(event);
  const secret = openSecret({ keyId: target.secretKeyId, ciphertext: target.secretCiphertext }, secrets.encryptionKeys);
  // During a rotation's overlap the old secret signs too, so receivers can roll without missing an event.
  const previous =
    target.previousSecretCiphertext && target.previousSecretKeyId
      ? [openSecret({ keyId: target.previousSecretKeyId, ciphertext: target.previousSecretCiphertext }, secrets.encryptionKeys)]
      : [];
  const headers = {
    ...signatureHeaders([secret, ...previous], event.id, body),
    'content-type': 'application/json',
    'user-agent': USER_AGENT,
  };
  return { body, headers };
}

/** A Plaid Item's delivery: Plaid's body and its `Plaid-Verification` JWT. */
async function plaidSigned(pool: pg.Pool, secrets: Secrets, target: DeliveryTarget & { plaidItemId: string }): Promise<Signed> {
  const body = plaidBody(target);
  return {
    body,
    headers: { ...(await plaidHeaders(pool, secrets, body)), 'content-type': 'application/json', 'user-agent': USER_AGENT },
  };
}
