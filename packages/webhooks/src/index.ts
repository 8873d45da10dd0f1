export { openSecret, type SealedSecret, sealSecret } from './secret-box.ts';
export { SIGNATURE_HEADERS, signatureHeaders, signPayload, verifySignature, type WebhookHeaders } from './signing.ts';
