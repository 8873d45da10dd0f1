/**
 * The ASPSPs (banks) the face offers (docs/faces/enablebanking.md). Enable Banking names an ASPSP by
 * its name and country. `Sandbank Sandbox` approves every open account at once — its `url` leads
 * straight back to the app's `redirect_url` — for unattended tests; `Sandbank` waits for the world's
 * owner to decide (`POST /v1/enablebanking/authorizations/{id}/decision`).
 */
import type { Aspsp } from '@sandbank/core';

/** 180 days, in seconds: the longest consent either ASPSP gives. */
const MAXIMUM_CONSENT_SECONDS = 180 * 86_400;

const ASPSPS: readonly Aspsp[] = [
  { name: 'Sandbank Sandbox', country: 'PL', maximumConsentSeconds: MAXIMUM_CONSENT_SECONDS, linksAtOnce: true },
  { name: 'Sandbank', country: 'PL', maximumConsentSeconds: MAXIMUM_CONSENT_SECONDS, linksAtOnce: false },
];

/** The ASPSP of that name and country (Enable Banking matches both exactly). */
export const findAspsp = (name: string, country: string): Aspsp | undefined =>
  ASPSPS.find((aspsp) => aspsp.name === name && aspsp.country === country);

export const aspspsOf = (country: string | undefined): Aspsp[] =>
  country === undefined ? [...ASPSPS] : ASPSPS.filter((aspsp) => aspsp.country === country);
