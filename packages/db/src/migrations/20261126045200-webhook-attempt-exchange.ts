import { Migration } from '@mikro-orm/migrations';

/**
 * Each webhook delivery attempt's request and response, as exchanged (docs/guides/webhooks.md):
 * the URL, headers and body sent (the signature headers included; never the secret), and what
 * the receiver answered — its status, its content-type and content-length, and the first 2 KB of
 * its body (`response_body_truncated` when there was more). `response_status` is the receiver's
 * own answer, while `status_code` is what the attempt counted as (a failure fault replaces it).
 * Null for attempts recorded before this migration, and the response columns for an attempt
 * that got no answer.
 */
export class Migration20261126045200WebhookAttemptExchange extends Migration {
  override name = '20261126045200-webhook-attempt-exchange';

  override up(): void {
    this.addSql(`
      alter table webhook_delivery_attempts
        add column request_url text,
        add column request_headers jsonb,
        add column request_body text,
        add column response_status integer,
        add column response_headers jsonb,
        add column response_body text,
        add column response_body_truncated boolean not null default false;
    `);
  }

  override down(): void {
    this.addSql(`
      alter table webhook_delivery_attempts
        drop column request_url,
        drop column request_headers,
        drop column request_body,
        drop column response_status,
        drop column response_headers,
        drop column response_body,
        drop column response_body_truncated;
    `);
  }
}
