/** A webhook signing secret made in the browser: 24 random bytes as hex, which the receiver pastes into its own config. */
export function randomSecret(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(24));
  return `whsec-${Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}
