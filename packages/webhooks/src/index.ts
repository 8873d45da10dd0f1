export {
  assertPublicHost,
  checkWebhookUrl,
  guardedLookup,
  isPublicAddress,
  UnsafeAddressError,
  type UrlCheck,
  type UrlPolicy,
} from './address-policy.ts';
export { type AttemptKey, describeFaults, type FaultPlan, faultRoll, planFaults } from './faults.ts';
export {
  DELIVER_WEBHOOK_TASK,
  type DeliveryJobPayload,
  DeliveryJobPayloadSchema,
  deliveryJob,
  deliveryJobKey,
  deliveryUserFlag,
  enqueueDeliveryJobsSql,
  JOB_MAX_ATTEMPTS,
  retryDelaySeconds,
} from './jobs.ts';
export {
  generatePlaidSigningKey,
  PLAID_VERIFICATION_HEADER,
  type PlaidSigningKey,
  signPlaidWebhook,
} from './plaid-verification.ts';
export { openSecret, type SealedSecret, sealSecret } from './secret-box.ts';
export {
  newStandardSecret,
  SIGNATURE_HEADERS,
  signatureHeaders,
  signPayload,
  standardSecretProblem,
  verifySignature,
  type WebhookHeaders,
} from './signing.ts';
