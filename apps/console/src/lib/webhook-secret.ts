/**
 * A webhook signing secret made in the browser, in the Standard Webhooks form: `whsec_` + base64 of
 * 24 random bytes. A receiver passes it as is to any Standard Webhooks library (`new Webhook(secret)`),
 * which signs with the decoded bytes, as Sandbank does.
 */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec_${btoa(String.fromCharCode(...bytes))}`;
}
