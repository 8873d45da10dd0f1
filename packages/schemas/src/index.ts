/**
 * Sandbank's shared vocabulary: the unified JSON format of every response, the error codes, and
 * the resource shapes that the API, the worker and the typed client all agree on.
 *
 * Glossary (in full, with links: docs/concepts/worlds.md)
 * - user: a person who registers with e-mail and password; a user owns one world.
 * - world: everything a user owns — accounts, transactions, schedules, events, webhooks, API keys —
 *   and the clock they all read. Worlds are isolated from each other.
 * - account: a named PLN balance in a world; `open` or `closed`; the balance never goes below 0.
 * - transaction: one signed amount (credit > 0, debit < 0) booked on an account. Not immutable: it
 *   has a lifecycle (docs/concepts/lifecycle.md). `status` is `pending`, `posted` or `voided` (an
 *   expiry is a void with reason `expired`); a refund is a reversal, a new posted transaction whose
 *   `reversalOf` names the original. Its `id` never changes; `version` grows on every change.
 * - event: the durable record that something happened (`transaction.created`), written in the
 *   same database transaction as the change it describes (the outbox).
 * - webhook: a user's subscription of a URL to event kinds, signed with a shared secret.
 * - delivery: one event sent to one webhook; it succeeds, or fails after its retries.
 * - attempt: one HTTP request of a delivery, with its status code, duration and error.
 * - owner: the user whose transactions the pull endpoint reads (by id, e-mail or local part).
 * - API key: a user's key (`sbk_…`) that reads that user's world without a user token.
 * - partner key: an operator-configured key that reads every owner.
 */
export * from './balance-history.ts';
export * from './errors.ts';
export * from './event-body.ts';
export * from './format.ts';
export * from './payments.ts';
export * from './resources.ts';
export * from './webhook-faults.ts';
