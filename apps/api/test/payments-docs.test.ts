/** docs/concepts/payments.md stays true: its table of test IBANs is the code's, and every IBAN in it is checksum-valid. */
import { readFileSync } from 'node:fs';
import { TEST_IBANS } from '@sandbank/core';
import { isValidIBAN } from 'ibantools';
import { expect, it } from 'vitest';

const page = readFileSync(new URL('../../../docs/concepts/payments.md', import.meta.url), 'utf8');

it('documents every test IBAN with its stage, reason code and days, and no other', () => {
  const section = page.slice(page.indexOf('## Test IBANs'), page.indexOf('## Holds and returns'));
  const rows = [...section.matchAll(/^\| `([A-Z0-9]+)` +\| (\w+) +\| `([A-Z0-9]{4})` +\| (\d*) +\|$/gm)].map(
    ([, iban, stage, code, days]) => [iban, stage, code, days ? Number(days) : undefined],
  );
  const expected = [...TEST_IBANS].map(([iban, outcome]) => [iban, outcome.stage, outcome.code, outcome.days]);
  expect(rows).toEqual(expected);
  for (const [iban] of rows) expect(isValidIBAN(iban as string), String(iban)).toBe(true);
});
