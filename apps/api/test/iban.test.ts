/**
 * Every account's IBAN (docs/concepts/faces.md#iban-and-bic): checked by ibantools, a validator we did not write (the IBAN's
 * mod-97 check digits and the Polish NRB's sort-code check digit), and stable for an account id.
 */
import { ibanOf, nrbOf, SANDBANK_BIC, SANDBANK_SORT_CODE } from '@sandbank/core';
import fc from 'fast-check';
import { extractIBAN, isValidBIC, isValidIBAN } from 'ibantools';
import { describe, expect, it } from 'vitest';

describe('ibanOf', () => {
  it('is a valid Polish IBAN on Sandbank’s sort code for any account id', () => {
    fc.assert(
      fc.property(fc.uuid(), (id) => {
        const iban = ibanOf(id);
        expect(iban).toMatch(/^PL\d{26}$/);
        expect(isValidIBAN(iban), iban).toBe(true);
        expect(extractIBAN(iban)).toMatchObject({ valid: true, countryCode: 'PL' });
        expect(nrbOf(iban).slice(2, 10)).toBe(SANDBANK_SORT_CODE);
      }),
      { numRuns: 2000 },
    );
  });

  it('is the same for the same id, whatever its case, and differs between ids', () => {
    const id = '019abcde-0000-7000-8000-00000000000a';
    expect(ibanOf(id)).toBe('PL03999000123629894971194777');
    expect(ibanOf(id.toUpperCase())).toBe(ibanOf(id));
    expect(ibanOf('019abcde-0000-7000-8000-00000000000b')).not.toBe(ibanOf(id));
  });

  it('uses a test BIC', () => {
    expect(isValidBIC(SANDBANK_BIC)).toBe(true);
    expect(SANDBANK_BIC[7]).toBe('0'); // SWIFT's test-and-training location codes end in 0
  });
});
