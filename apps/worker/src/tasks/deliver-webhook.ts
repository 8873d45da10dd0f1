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
  describeFaults,
  type FaultPlan,
  openSecret,
  planFaults,
  retryDelaySeconds,
  signatureHeaders,
} from '@sandbank/webhooks';
import type { JobHelpers, Task } from 'graphile-worker';
import type pg from 'pg';
import type { Logger } from 'pino';
import type { Agent } from 'undici';
import { type AttemptOutcome, type PostResult, postWebhook } from '../delivery/http-client.ts';
import { plaidBody, plaidHeaders } from '../delivery/plaid.ts';
import { abandonDelivery, type DeliveryTarget, loadDeliveryTarget } from '../delivery/queries.ts';
import { type AttemptRecord, holdDeliveryJob, putBackDeliveryJob, recordAttempt } from '../delivery/store.ts';
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
  return async (payload: DeliveryJobPayload, helpers: JobHelpers) => {
    const { deliveryId, attempt, cycle, heldMs } = payload;
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
    // The webhook lab (docs/guides/webhooks.md): what this attempt does wrong on purpose, the same on every run for a seed.
    const plan = planFaults(target.faults, { eventId: target.eventId, cycle, attempt });
    if (plan.holdMs !== undefined && heldMs === undefined) {
      const held = await holdDeliveryJob(pool, { ...payload, userId: target.userId, heldMs: plan.holdMs });
      return log.info({ heldMs: plan.holdMs, held }, 'first try held back (reorder fault)');
    }
    const { plaidItemId } = target;
    const signed = plaidItemId
      ? await plaidSigned(pool, secrets, { ...target, plaidItemId })
      : await standardSigned(pool, deliveryId, target, secrets, log, plan);
    if (!signed) return;
    const { body, headers } = signed;
    const startedAt = new Date();
    if (plan.latencyMs !== undefined) await pause(plan.latencyMs, helpers.abortSignal);
    const post = () =>
      postWebhook(agent, {
        url: target.url,
        headers,
        body,
        timeoutMs: config.webhooks.timeoutMs,
        policy,
        shutdown: helpers.abortSignal,
      });
    const sent = await post();
    // The duplicate: the same request again, same `webhook-id`; the first answer counts (and is the one recorded).
    if (plan.duplicate) await post();
    const { response, ...outcome } = withFailureFault(sent, plan, startedAt);
    const record = decide(outcome, attempt, config.webhooks.retryScheduleSeconds);
    const attemptOf = { deliveryId, cycle, webhookId: target.webhookId, userId: target.userId, startedAt };
    // The exchange as it happened: the request as sent (headers carry signatures, never the secret) and the real answer.
    const exchange = { request: { url: target.url, headers, body }, response };
    await recordAttempt(pool, { ...attemptOf, ...outcome, ...record, ...exchange, faults: describeFaults(plan, heldMs) });
    log.info(
      { statusCode: outcome.statusCode, durationMs: outcome.durationMs, error: outcome.error, outcome: record.outcome },
      'webhook attempt',
    );
  };
}

/**
 * The failure fault: the attempt counts as the chosen answer (the request was sent all the same);
 * the receiver's real answer stays in `response`.
 */
function withFailureFault(outcome: PostResult, plan: FaultPlan, startedAt: Date): PostResult {
  if (plan.failure === undefined) return outcome;
  const { response } = outcome;
  const durationMs = Math.max(outcome.durationMs, Date.now() - startedAt.getTime());
  const answered = outcome.statusCode === null ? (outcome.error ?? 'no answer') : `HTTP ${outcome.statusCode}`;
  if (plan.failure === 'timeout')
    return { statusCode: null, durationMs, error: `fault: timeout (the receiver answered ${answered})`, response };
  return {
    statusCode: plan.failure,
    durationMs,
    error: `fault: HTTP ${plan.failure} (the receiver answered ${answered})`,
    response,
  };
}

/** Waits `ms` (the latency fault); a shutdown aborts it and the job is retried. */
function pause(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', stop);
      resolve();
    }, ms);
    function stop() {
      clearTimeout(timer);
      reject(signal.reason);
    }
    signal.addEventListener('abort', stop, { once: true });
  });
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
  plan: FaultPlan,
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
    // The stale-timestamp fault signs correctly, for a time too old: verification must refuse it.
    ...signatureHeaders([secret, ...previous], event.id, body, new Date(Date.now() - (plan.staleSeconds ?? 0) * 1000)),
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
