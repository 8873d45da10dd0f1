/**
 * "Download statement" on an account page, in headless Chromium against the real API: the file
 * arrives under the API's name and holds the account's entries and closing balance (camt.053 read
 * back by Chromium's own XML parser, CSV as text); a bad period shows the contract's error. The page stays
 * accessible and within its CSP (the file is a blob the page saves, not a page of its own).
 */

import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { checkPage, money, openPage, textOf } from './browser.ts';
import { openAccountPage, register, simulate } from './pages.ts';
import { setUpConsoleStack } from './stack.ts';

const stack = setUpConsoleStack({ worker: false });

/** Clicks "Download statement" and returns the saved file's name and bytes. */
async function download(page: Page): Promise<{ name: string; bytes: Buffer }> {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('form', { name: 'Download statement' }).getByRole('button', { name: 'Download statement' }).click(),
  ]);
  const path = await file.path();
  return { name: file.suggestedFilename(), bytes: await readFile(path) };
}

it('downloads the account’s statement in the format and period asked for', async () => {
  const watched = await openPage(stack.browser, stack.url);
  const { page } = watched;
  await register(page, stack.url, `statement-${Date.now()}@example.com`);
  await openAccountPage(page, 'Codzienne');
  await simulate(page, 'in', '1000', 'Wynagrodzenie & <premia>');
  await expect.poll(() => textOf(page, 'balance')).toBe(money(100_000));
  await simulate(page, 'out', '12,50', 'Kawa "Żabka"');
  await expect.poll(() => textOf(page, 'balance')).toBe(money(98_750));

  await page.getByText('Download statement', { exact: true }).first().click(); // opens the card
  const form = page.getByRole('form', { name: 'Download statement' });
  await form.getByLabel('Format').selectOption({ label: 'camt.053 — ISO 20022 statement' });
  // From two days back (not the default month to date, which a run across the month's last midnight would leave empty).
  const from = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Warsaw' }).format(Date.now() - 2 * 86_400_000);
  await form.getByLabel('From').fill(from);
  const camt = await download(page);
  expect(camt.name).toMatch(new RegExp(`^sandbank-PL\\d{26}-${from}-\\d{4}-\\d\\d-\\d\\d-camt053\\.xml$`));
  // Read back by Chromium's own XML parser: each entry's signed amount, and the closing booked balance.
  const read = await page.evaluate((xml) => {
    const doc = new DOMParser().parseFromString(xml, 'application/xml');
    if (doc.getElementsByTagName('parsererror').length > 0) throw new Error('not well-formed XML');
    const signed = (node: Element) =>
      Math.round(Number(node.getElementsByTagName('Amt')[0]?.textContent) * 100) *
      (node.getElementsByTagName('CdtDbtInd')[0]?.textContent === 'DBIT' ? -1 : 1);
    const balances = [...doc.getElementsByTagName('Bal')];
    const closing = balances.find((bal) => bal.getElementsByTagName('Cd')[0]?.textContent === 'CLBD');
    return { entries: [...doc.getElementsByTagName('Ntry')].map(signed), closing: closing ? signed(closing) : null };
  }, camt.bytes.toString('utf8'));
  expect(read).toEqual({ entries: [100_000, -1_250], closing: 98_750 });
  expect(await textOf(page, 'statement-saved')).toContain(camt.name);

  await form.getByLabel('Format').selectOption({ label: 'CSV' });
  const csv = await download(page);
  expect(csv.name).toMatch(/-csv\.csv$/);
  const text = csv.bytes.toString('utf8');
  expect(text.split('\r\n')[0]).toMatch(/^booking_date,value_date,amount,currency,balance_after,/);
  expect(text).toContain('Wynagrodzenie & <premia>');
  expect(text).toContain('-12.50,PLN,987.50');
  await checkPage(watched, 'account-statement');

  // A period that ends before it starts: the contract's error, and no file.
  await form.getByLabel('From').fill('2026-03-10');
  await form.getByLabel('To').fill('2026-03-01');
  await form.getByRole('button', { name: 'Download statement' }).click();
  await form.getByRole('alert').waitFor();
  expect(await form.getByRole('alert').textContent()).toContain('VALIDATION_ERROR');
  await checkPage(watched, 'account-statement-error');
});
