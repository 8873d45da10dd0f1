/**
 * The institutions the face offers (docs/faces/gocardless.md): GoCardless's own sandbox institution, which links at
 * once, and Polish sandbox banks whose data carries one quirk each that real integrations meet.
 * Each quirk is data here and one step of the mapping (mapping.ts), never a domain code path; what
 * each one does to the client's view is in docs/faces/gocardless.md. The banks with personalities
 * (../personalities.ts, shared with the Enable Banking face) follow the sandbox banks.
 */
import { PERSONALITIES, type Quirks } from '../personalities.ts';

// The quirks' description lives with the personalities; the face's modules keep naming it here.
export type { Quirks };

export interface Institution {
  id: string;
  name: string;
  bic: string;
  transactionTotalDays: number;
  maxAccessValidForDays: number;
  countries: string[];
  /** The requisition links every open account when it is created (no consent page). */
  linksAtOnce: boolean;
  quirks: Quirks;
}

const SANDBOX_INSTITUTION_ID = 'SANDBOXFINANCE_SFIN0000';

const polish = (id: string, name: string, bic: string, quirks: Quirks): Institution => ({
  id,
  name,
  bic,
  transactionTotalDays: 365,
  maxAccessValidForDays: 180,
  countries: ['PL'],
  linksAtOnce: false,
  quirks,
});

const INSTITUTIONS: readonly Institution[] = [
  {
    id: SANDBOX_INSTITUTION_ID,
    name: 'Sandbox Finance',
    bic: 'SFIN0000',
    transactionTotalDays: 365,
    maxAccessValidForDays: 180,
    countries: ['XX', 'PL'],
    linksAtOnce: true,
    quirks: {},
  },
  polish('SANDBANK_DATY_SNDBPLP1', 'Bank Przestawionych Dat (Sandbank)', 'SNDBPLP1', { swapDates: true }),
  polish('SANDBANK_PREFIKS_SNDBPLP2', 'Bank Prefiksów (Sandbank)', 'SNDBPLP2', { idPrefix: 'PL-TRX-', pendingWithoutId: true }),
  polish('SANDBANK_TYTUL_SNDBPLP3', 'Bank Tytułów Przelewów (Sandbank)', 'SNDBPLP3', { counterpartyInRemittance: true }),
  polish('SANDBANK_LIMIT_SNDBPLP4', 'Bank Dziennego Limitu (Sandbank)', 'SNDBPLP4', { dailyLimit: 4 }),
  ...PERSONALITIES.map(({ gocardless, quirks }) => ({
    ...polish(gocardless.id, gocardless.name, gocardless.bic, quirks),
    transactionTotalDays: gocardless.transactionTotalDays,
    maxAccessValidForDays: gocardless.maxAccessValidForDays,
  })),
];

const byId = new Map(INSTITUTIONS.map((institution) => [institution.id, institution]));

export const findInstitution = (id: string): Institution | undefined => byId.get(id);

/** The institutions of a country (ISO 3166 alpha-2, any case); every one without a country. */
export const institutionsOf = (country: string | undefined): Institution[] =>
  country === undefined ? [...INSTITUTIONS] : INSTITUTIONS.filter((i) => i.countries.includes(country.toUpperCase()));
