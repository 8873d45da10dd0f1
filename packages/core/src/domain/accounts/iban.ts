/**
 * Every account's IBAN and BIC (docs/concepts/faces.md#iban-and-bic), derived from its id alone, so every face shows the same
 * numbers without storing them. A Polish IBAN is `PL` + 2 check digits (ISO 13616 mod 97) + the
 * 24-digit NRB: the 8-digit sort code (3-digit bank number, 4-digit branch, 1 check digit weighted
 * 3,9,7,1,3,9,7) and a 16-digit account number.
 *
 * Sandbank's sort code is 999 0001 2: bank number 999 is not assigned to any bank by the NBP, so a
 * Sandbank number can never be a real account. The BIC `SNDBPLP0` has `0` as the second character
 * of its location code, which SWIFT reserves for test BICs. The 16 digits are the first 64 bits of
 * SHA-256 of the account id modulo 10^16: stable forever, but not guaranteed unique (two of a
 * million accounts share one with odds about 1 in 20,000); nothing looks accounts up by IBAN.
 */
import { createHash } from 'node:crypto';
import { composeIBAN } from 'ibantools';

/** Bank 999 (unassigned), branch 0001, check digit 2. */
export const SANDBANK_SORT_CODE = '99900012';
export const SANDBANK_BIC = 'SNDBPLP0';

const NUMBER_SPACE = 10n ** 16n;

/** The account's 16-digit number inside Sandbank's sort code. */
function accountNumber(accountId: string): string {
  const digest = createHash('sha256').update(accountId.toLowerCase()).digest();
  return (digest.readBigUInt64BE(0) % NUMBER_SPACE).toString().padStart(16, '0');
}

/** `PL` + check digits + NRB, in the electronic form (no spaces), e.g. `PL61999000120000001234567890`. */
export function ibanOf(accountId: string): string {
  const iban = composeIBAN({ countryCode: 'PL', bban: `${SANDBANK_SORT_CODE}${accountNumber(accountId)}` });
  if (!iban) throw new Error(`No IBAN composes for account ${accountId}`); // unreachable: 24 digits always compose
  return iban;
}

/** The 26-digit NRB (a Polish domestic account number): the IBAN without `PL`. */
export const nrbOf = (iban: string) => iban.slice(2);
