/** Every migration, in order. Listed explicitly (no folder scanning) so bundlers and Node's type stripping both work. */
import type { MigrationObject } from '@mikro-orm/core';
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
import { Migration20261126030000GocardlessConsentSteps } from './20261126030000-gocardless-consent-steps.ts';
import { Migration20261126031000PlaidSigningKeyRotation } from './20261126031000-plaid-signing-key-rotation.ts';

export const migrations: MigrationObject[] = [
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
  { name: '20261126030000-gocardless-consent-steps', class: Migration20261126030000GocardlessConsentSteps },
  { name: '20261126031000-plaid-signing-key-rotation', class: Migration20261126031000PlaidSigningKeyRotation },
];
