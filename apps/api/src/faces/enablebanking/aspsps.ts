/**
 * The ASPSPs (banks) the face offers (docs/faces/enablebanking.md). Enable Banking names an ASPSP by
 * its name and country. `Sandbank Sandbox` approves every open account at once — its `url` leads
 * straight back to the app's `redirect_url` — for unattended tests; `Sandbank` waits for the world's
 * owner to decide (`POST /v1/enablebanking/authorizations/{id}/decision`). The banks with personalities
 * (../personalities.ts, shared with the GoCardless face) follow, decided the same way; `quirksOf`
 * gives a session's ASPSP's quirks to the mapping (mapping.ts).
 */
import type { Aspsp } from '@sandbank/core';
import { PERSONALITIES, type Quirks } from '../personalities.ts';

/** 180 days, in seconds: the longest consent either ASPSP gives. */
const MAXIMUM_CONSENT_SECONDS = 180 * 86_400;

const ASPSPS: readonly Aspsp[] = [
  { name: 'Sandbank Sandbox', country: 'PL', maximumConsentSeconds: MAXIMUM_CONSENT_SECONDS, linksAtOnce: true },
  { name: 'Sandbank', country: 'PL', maximumConsentSeconds: MAXIMUM_CONSENT_SECONDS, linksAtOnce: false },
  ...PERSONALITIES.map(({ enablebanking }) => ({
    name: enablebanking.name,
    country: 'PL',
    maximumConsentSeconds: MAXIMUM_CONSENT_SECONDS,
    linksAtOnce: false,
  })),
];

const QUIRKS = new Map(PERSONALITIES.map((p) => [`PL:${p.enablebanking.name}`, p.quirks]));

/** The quirks of the ASPSP's data; none for Sandbank's own. */
export const quirksOf = (aspsp: { name: string; country: string }): Quirks => QUIRKS.get(`${aspsp.country}:${aspsp.name}`) ?? {};

/** The ASPSP of that name and country (Enable Banking matches both exactly). */
export const findAspsp = (name: string, country: string): Aspsp | undefined =>
  ASPSPS.find((aspsp) => aspsp.name === name && aspsp.country === country);

export const aspspsOf = (country: string | undefined): Aspsp[] =>
  country === undefined ? [...ASPSPS] : ASPSPS.filter((aspsp) => aspsp.country === country);
