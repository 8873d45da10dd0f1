export { type Context, createContextInner, type ResponseMeta } from './context.ts';
export type { Deps } from './deps.ts';
export { ibanOf, nrbOf, SANDBANK_BIC, SANDBANK_SORT_CODE } from './domain/accounts/iban.ts';
export { issueSession, refreshSession, revokeFamilyOfRefreshToken } from './domain/auth/sessions.ts';
export { authenticateAccessToken, signAccessToken, verifyAccessToken } from './domain/auth/tokens.ts';
export { authenticateWorldOwner } from './domain/auth/world-owner.ts';
export { readClock, tryClockLock } from './domain/clock/clock.ts';
export { rateWithin } from './domain/currencies/convert.ts';
export { currencyExponent } from './domain/currencies/currencies.ts';
export { type FxRateParams, fxRate } from './domain/currencies/fx-rates.ts';
export { decimalToMinor, minorToDecimal } from './domain/currencies/money.ts';
export { fireDueItems, fireDueItemsEverywhere } from './domain/due-items/due-items.ts';
export type { Application } from './domain/enablebanking/applications.ts';
export { type Aspsp, type Authorization, startAuthorization } from './domain/enablebanking/authorizations.ts';
export { JWT_AUDIENCE, JWT_ISSUER, type JwtRefusal, MAX_JWT_SECONDS, verifyApplicationJwt } from './domain/enablebanking/jwt.ts';
export {
  deleteApplicationPayment,
  type EbPaymentStatus,
  ebPaymentStatusOf,
  type PaymentRequest,
  readApplicationPayment,
  startPayment,
} from './domain/enablebanking/payments.ts';
export {
  closeSession,
  countSessionAccountReads,
  createSession,
  readSession,
  readSessionAccount,
  type Session,
  type SessionAccount,
  type SessionAccountAccess,
  type SessionStatus,
} from './domain/enablebanking/sessions.ts';
export {
  type PageEntry,
  type PagePosition,
  readTransactionPage,
} from './domain/enablebanking/transaction-pages.ts';
export {
  cursorOf,
  LOG_START,
  type LogPosition,
  positionFromCursor,
  readLog,
} from './domain/events/event-log.ts';
export {
  ACCESS_SCOPES,
  type AccessScope,
  type Agreement,
  createAgreement,
  findAgreement,
} from './domain/gocardless/agreements.ts';
export { countDailyAccess, type LinkedAccount, readLinkedAccount } from './domain/gocardless/linked-accounts.ts';
export {
  advanceRequisition,
  type ConsentStep,
  createRequisition,
  decideRequisition,
  listRequisitions,
  REQUISITION_STATUSES,
  type Requisition,
  type RequisitionStatus,
  readRequisition,
} from './domain/gocardless/requisitions.ts';
export {
  type GocardlessCaller,
  issueGocardlessTokens,
  refreshGocardlessAccess,
  verifyGocardlessToken,
} from './domain/gocardless/tokens.ts';
export { authenticateApiKey } from './domain/integrations/authenticate-api-key.ts';
export { partnerKeys } from './domain/integrations/partner-keys.ts';
export { resolveOwner } from './domain/integrations/resolve-owner.ts';
export { countDeliveriesByStatus, countJobsByState } from './domain/metrics/queries.ts';
export {
  accountNotifications,
  paymentFileStatusReport,
  type UploadedPaymentFile,
  uploadPaymentFile,
} from './domain/payment-files/files.ts';
export { PAIN001_BOUNDS } from './domain/payment-files/pain001.ts';
export { sessionFor } from './domain/payments/calendar.ts';
export { firePaymentStep } from './domain/payments/payment-steps.ts';
export { TEST_IBANS, type TestIbanOutcome } from './domain/payments/test-ibans.ts';
export { authenticatePlaid, type PlaidCredential } from './domain/plaid/credentials.ts';
export { PLAID_CONSENTED_PRODUCTS, PLAID_INSTITUTION_ID, type PlaidItem } from './domain/plaid/item.ts';
export {
  changeItemLogin,
  FIREABLE_WEBHOOK_CODES,
  fireableWebhookType,
  fireItemWebhook,
  ITEM_LOGIN_REQUIRED,
  isFireable,
} from './domain/plaid/item-login.ts';
export { listItemTransactions, syncItem } from './domain/plaid/item-transactions.ts';
export {
  createItem,
  exchangePublicToken,
  findItem,
  type ItemAccount,
  readItemAccounts,
  readItemOwner,
  removeItem,
  setItemWebhook,
} from './domain/plaid/items.ts';
export {
  ensureSigningKey,
  findVerificationKey,
  rotatePlaidSigningKey,
} from './domain/plaid/notifications.ts';
export {
  askPrimaryAgain,
  partnerCaller,
  READ_AFTER_HEADER,
  ReadRouting,
  type ReadSource,
  readEntityManager,
  readOnReplica,
} from './domain/replication/read-routing.ts';
export { runScheduleOccurrence } from './domain/schedules/run-occurrence.ts';
export { createSchedule } from './domain/schedules/schedules.ts';
export { type AccountSet, MAX_TRANSACTIONS_PER_ACCOUNT, readAccountSet } from './domain/simplefin/account-set.ts';
export { authenticateSimplefin } from './domain/simplefin/credentials.ts';
export { claimSetupToken } from './domain/simplefin/setup-tokens.ts';
export { simulateTransaction } from './domain/simulations/simulate-transaction.ts';
export type { EntryConversion } from './domain/statements/entry-conversion.ts';
export type { PendingEntry } from './domain/statements/pending-entries.ts';
export { readPendingEntries } from './domain/statements/pending-entries.ts';
export {
  openStatement,
  readStatement,
  type Statement,
  type StatementEntry,
  type StatementHead,
  type StatementReader,
  type StatementSide,
} from './domain/statements/statement.ts';
export { MAX_STATEMENT_DAYS, StatementDaySchema } from './domain/statements/statement-period.ts';
export { familyOf } from './domain/tenancy/family.ts';
export { settleDueTransaction } from './domain/transactions/settle-due.ts';
export { jsonOf, readTransactionList, TransactionListCache } from './domain/transactions/transaction-list-cache.ts';
export { sweepExpiredWorlds } from './domain/worlds/remove-worlds.ts';
export { retryAfterOf, statusOf, toErrorBody } from './error-body.ts';
export { AppError, isDatabaseUnavailable } from './errors.ts';
export { applyFrameworkWorkarounds } from './framework-workarounds.ts';
export { LocalDaySchema } from './lib/date-range.ts';
export { uuidv7 } from './lib/ids.ts';
export { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan, tooDeep } from './lib/json-depth.ts';
export { withTraceId } from './lib/request-trace.ts';
export { findUnstorable, isStorable } from './lib/storable-text.ts';
export { isoTimestamp } from './lib/timestamps.ts';
export { TRANSACTION_COLUMNS } from './mappers/transaction.ts';
export { buildOpenApiDocument, errorBodyJsonSchema, limitHeader, RESPONSE_HEADERS } from './openapi.ts';
export { clientKey } from './protection/client-key.ts';
export { type FamilyShares, familyShares, withFamilyShare } from './protection/family-shares.ts';
export { byApiKey, byIp, rateLimit } from './protection/rate-limit-middleware.ts';
export {
  consumePoint,
  createRateLimits,
  RATE_LIMIT_TABLE,
  type RateLimitBucket,
  type RateLimitOutcome,
  type RateLimits,
} from './protection/rate-limiters.ts';
export { useConfiguredResponseChecks } from './response-check.ts';
export { type AppRouter, appRouter, procedureMetas } from './router.ts';
export { bearerToken, type Meta } from './trpc.ts';
