/** Every migration, in order. Listed explicitly (no folder scanning) so bundlers and Node's type stripping both work. */
import type { MigrationObject } from '@mikro-orm/core';
import type { RenderedMigrations } from '../generated/tables.ts';
import { Migration20261122000000Initial } from './20261122000000-initial.ts';
import { Migration20261122010000LedgerLimits } from './20261122010000-ledger-limits.ts';
import { Migration20261122020000WebhookDeliveries } from './20261122020000-webhook-deliveries.ts';
import { Migration20261122040000RateLimits } from './20261122040000-rate-limits.ts';
import { Migration20261122050000TransactionOwner } from './20261122050000-transaction-owner.ts';
import { Migration20261122060000AccountTransactionCount } from './20261122060000-account-transaction-count.ts';
import { Migration20261123020000TransactionLifecycle } from './20261123020000-transaction-lifecycle.ts';
import { Migration20261123030000EventLog } from './20261123030000-event-log.ts';
import { Migration20261123040000ClockAndSchedules } from './20261123040000-clock-and-schedules.ts';
import { Migration20261124010000Simplefin } from './20261124010000-simplefin.ts';
import { Migration20261124020000WebhookRotationAndCycles } from './20261124020000-webhook-rotation-and-cycles.ts';
import { Migration20261124030000TransactionVersionRaised } from './20261124030000-transaction-version-raised.ts';
import { Migration20261124040000TransactionRequestFingerprint } from './20261124040000-transaction-request-fingerprint.ts';
import { Migration20261125000000WallClock } from './20261125000000-wall-clock.ts';
import { Migration20261125010000PlaidItems } from './20261125010000-plaid-items.ts';
import { Migration20261125020000PlaidWebhooks } from './20261125020000-plaid-webhooks.ts';
import { Migration20261125030000Gocardless } from './20261125030000-gocardless.ts';
import { Migration20261125030000PasswordGuesses } from './20261125030000-password-guesses.ts';
import { Migration20261126010000Worlds } from './20261126010000-worlds.ts';
import { Migration20261126020000WebhookFaults } from './20261126020000-webhook-faults.ts';
import { Migration20261126030000GocardlessConsentSteps } from './20261126030000-gocardless-consent-steps.ts';
import { Migration20261126031000PlaidSigningKeyRotation } from './20261126031000-plaid-signing-key-rotation.ts';
import { Migration20261126041700SnapshotWebhooksAndKeys } from './20261126041700-snapshot-webhooks-and-keys.ts';
import { Migration20261126044500EventsByTransaction } from './20261126044500-events-by-transaction.ts';
import { Migration20261126045200WebhookAttemptExchange } from './20261126045200-webhook-attempt-exchange.ts';
import { Migration20261126065000SnapshotInclude } from './20261126065000-snapshot-include.ts';
import { Migration20261126065100WorldRefreshTokens } from './20261126065100-world-refresh-tokens.ts';
import { Migration20261126070700WebhookAttemptRetention } from './20261126070700-webhook-attempt-retention.ts';
import { Migration20261129080000AccountCurrencies } from './20261129080000-account-currencies.ts';
import { Migration20261129103031FxRates } from './20261129103031-fx-rates.ts';
import { Migration20261129103038Enablebanking } from './20261129103038-enablebanking.ts';
import { Migration20261129103059Payments } from './20261129103059-payments.ts';
import { Migration20261129104104CardConversions } from './20261129104104-card-conversions.ts';
import { Migration20261129113616ConversionVersionRule } from './20261129113616-conversion-version-rule.ts';
import { Migration20261129120030PaymentFiles } from './20261129120030-payment-files.ts';
import { Migration20261129121300PaymentLinksVersionRule } from './20261129121300-payment-links-version-rule.ts';
import { Migration20261129130435PaymentLinkIndexes } from './20261129130435-payment-link-indexes.ts';
import { Migration20261129135950EnablebankingPayments } from './20261129135950-enablebanking-payments.ts';
import { Migration20261129140002SnapshotPayments } from './20261129140002-snapshot-payments.ts';
import { Migration20261129150245StandingOrders } from './20261129150245-standing-orders.ts';
import { Migration20261129150521RequisitionApiKey } from './20261129150521-requisition-api-key.ts';
import { Migration20261129173000EnablebankingDailyAccess } from './20261129173000-enablebanking-daily-access.ts';
import { Migration20261129174641TransactionsPostingOrder } from './20261129174641-transactions-posting-order.ts';

/**
 * The list must be the migrations the generated table types were rendered from, name for name: a
 * migration added, renamed or removed here without `pnpm --filter @sandbank/db schema` fails `tsc`
 * on this `satisfies` (the queries would otherwise be typed by stale columns).
 */
type Listed<Names extends readonly string[]> = {
  readonly [K in keyof Names]: { readonly name: Names[K]; readonly class: MigrationObject['class'] };
};

const listed = [
  { name: '20261122000000-initial', class: Migration20261122000000Initial },
  { name: '20261122010000-ledger-limits', class: Migration20261122010000LedgerLimits },
  { name: '20261122020000-webhook-deliveries', class: Migration20261122020000WebhookDeliveries },
  { name: '20261122040000-rate-limits', class: Migration20261122040000RateLimits },
  { name: '20261122050000-transaction-owner', class: Migration20261122050000TransactionOwner },
  { name: '20261122060000-account-transaction-count', class: Migration20261122060000AccountTransactionCount },
  { name: '20261123020000-transaction-lifecycle', class: Migration20261123020000TransactionLifecycle },
  { name: '20261123030000-event-log', class: Migration20261123030000EventLog },
  { name: '20261123040000-clock-and-schedules', class: Migration20261123040000ClockAndSchedules },
  { name: '20261124010000-simplefin', class: Migration20261124010000Simplefin },
  { name: '20261124020000-webhook-rotation-and-cycles', class: Migration20261124020000WebhookRotationAndCycles },
  { name: '20261124030000-transaction-version-raised', class: Migration20261124030000TransactionVersionRaised },
  { name: '20261124040000-transaction-request-fingerprint', class: Migration20261124040000TransactionRequestFingerprint },
  { name: '20261125000000-wall-clock', class: Migration20261125000000WallClock },
  { name: '20261125010000-plaid-items', class: Migration20261125010000PlaidItems },
  { name: '20261125020000-plaid-webhooks', class: Migration20261125020000PlaidWebhooks },
  { name: '20261125030000-gocardless', class: Migration20261125030000Gocardless },
  { name: '20261125030000-password-guesses', class: Migration20261125030000PasswordGuesses },
  { name: '20261126010000-worlds', class: Migration20261126010000Worlds },
  { name: '20261126020000-webhook-faults', class: Migration20261126020000WebhookFaults },
  { name: '20261126030000-gocardless-consent-steps', class: Migration20261126030000GocardlessConsentSteps },
  { name: '20261126031000-plaid-signing-key-rotation', class: Migration20261126031000PlaidSigningKeyRotation },
  { name: '20261126041700-snapshot-webhooks-and-keys', class: Migration20261126041700SnapshotWebhooksAndKeys },
  { name: '20261126044500-events-by-transaction', class: Migration20261126044500EventsByTransaction },
  { name: '20261126045200-webhook-attempt-exchange', class: Migration20261126045200WebhookAttemptExchange },
  { name: '20261126065000-snapshot-include', class: Migration20261126065000SnapshotInclude },
  { name: '20261126065100-world-refresh-tokens', class: Migration20261126065100WorldRefreshTokens },
  { name: '20261126070700-webhook-attempt-retention', class: Migration20261126070700WebhookAttemptRetention },
  { name: '20261129080000-account-currencies', class: Migration20261129080000AccountCurrencies },
  { name: '20261129103031-fx-rates', class: Migration20261129103031FxRates },
  { name: '20261129103038-enablebanking', class: Migration20261129103038Enablebanking },
  { name: '20261129103059-payments', class: Migration20261129103059Payments },
  { name: '20261129104104-card-conversions', class: Migration20261129104104CardConversions },
  { name: '20261129113616-conversion-version-rule', class: Migration20261129113616ConversionVersionRule },
  { name: '20261129120030-payment-files', class: Migration20261129120030PaymentFiles },
  { name: '20261129121300-payment-links-version-rule', class: Migration20261129121300PaymentLinksVersionRule },
  { name: '20261129130435-payment-link-indexes', class: Migration20261129130435PaymentLinkIndexes },
  { name: '20261129135950-enablebanking-payments', class: Migration20261129135950EnablebankingPayments },
  { name: '20261129140002-snapshot-payments', class: Migration20261129140002SnapshotPayments },
  { name: '20261129150245-standing-orders', class: Migration20261129150245StandingOrders },
  { name: '20261129150521-requisition-api-key', class: Migration20261129150521RequisitionApiKey },
  { name: '20261129173000-enablebanking-daily-access', class: Migration20261129173000EnablebankingDailyAccess },
  { name: '20261129174641-transactions-posting-order', class: Migration20261129174641TransactionsPostingOrder },
] as const satisfies Listed<RenderedMigrations>;

export const migrations: MigrationObject[] = [...listed];
