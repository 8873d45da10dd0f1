/**
 * MT940 read back by parsers Sandbank did not write: npm `mt940js` (which also checks that opening
 * + turnover = closing) and Debian's AqBanking. Neither splits Polish `<` subfields, so the test
 * checks `:86:` by the format's rules itself: at most 6 lines of 65, subfields in order, no text
 * that opens a subfield. The code pages are decoded with iconv-lite.
 */
import iconv from 'iconv-lite';
import { Parser } from 'mt940js';
import { describe, expect, it } from 'vitest';
import { aqbankingImport, ensureAqbanking } from './aqbanking.ts';
import { daysAgo, download, postedOf, useStatementWorld, warsawDay } from './statement-world.ts';

const given = useStatementWorld(ensureAqbanking);

const path = (query: string) =>
  `/v1/accounts/${given.world.accountId}/statement?format=mt940&from=${warsawDay(daysAgo(45))}${query}`;

/** The `:86:` fields of a file: each one's lines. */
function fields86(text: string): string[][] {
  const fields: string[][] = [];
  for (const line of text.split('\r\n')) {
    if (line.startsWith(':86:')) fields.push([line.slice(4)]);
    else if (/^:\d\d[A-Z]?:/.test(line) || line === '-') fields.push([]);
    else fields.at(-1)?.push(line);
  }
  return fields.filter((lines) => lines.some(Boolean));
}

describe('MT940', () => {
  it('is the API’s booked history, read by mt940js, with Polish :86: subfields', async () => {
    const file = await download(given.app, path(''), given.world.user.accessToken);
    expect(file.status, file.text).toBe(200);
    expect(file.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(file.headers.get('content-disposition')).toMatch(/filename="sandbank-PL\d{26}-.+-mt940\.sta"$/);
    const [statement, ...more] = new Parser().parse(file.text);
    expect(more).toHaveLength(0);
    const posted = await postedOf(given.app, given.world);
    expect(statement?.transactions.map((t) => Math.round(t.amount * 100))).toEqual(posted.map((row) => row.amount));
    expect(Math.round((statement?.closingBalance ?? Number.NaN) * 100)).toBe(given.world.balance);
    expect(statement?.accountIdentification).toMatch(/^\/PL\d{26}$/);

    const fields = fields86(file.text);
    expect(fields).toHaveLength(posted.length);
    for (const lines of fields) {
      expect(lines.length).toBeLessThanOrEqual(6);
      for (const line of lines) expect([...line].length).toBeLessThanOrEqual(65);
      const subfields = [...lines.join('').matchAll(/<(\d\d)/g)].map((match) => match[1]);
      expect(subfields[0]).toBe('00');
      expect(subfields).toEqual([...subfields].sort());
    }
    const groceries = fields.map((lines) => lines.join('')).find((field) => field.includes('Zakupy'));
    // Emoji dropped, `<`/`>` as parentheses, cut into parts of 27 characters.
    expect(groceries).toBe('073<00PŁATNOŚĆ KARTĄ<20Zakupy żółć & (b)nie(/b) \'t<21ag\'<27Żabka "Polska" & Co (sp. z <28o.o.)');
  });

  it.each(['cp852', 'windows-1250'])('ships in %s, Polish letters intact', async (encoding) => {
    const file = await download(given.app, path(`&encoding=${encoding}`), given.world.user.accessToken);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe(`text/plain; charset=${encoding === 'cp852' ? 'ibm852' : encoding}`);
    const text = iconv.decode(file.bytes, encoding);
    expect(text).toContain('PŁATNOŚĆ KARTĄ');
    expect(text).toContain('Żabka');
    expect(iconv.encode(text, encoding)).toEqual(file.bytes); // nothing was replaced by '?'
    const utf8 = await download(given.app, path(''), given.world.user.accessToken);
    expect(text).toBe(utf8.text);
  });

  it('is imported by AqBanking with the same count, amounts and closing balance', async () => {
    const file = await download(given.app, path(''), given.world.user.accessToken);
    const imported = aqbankingImport(file.bytes, 'mt940');
    const posted = await postedOf(given.app, given.world);
    expect(imported.amounts).toEqual(posted.map((row) => row.amount));
    expect(imported.closing).toBe(given.world.balance);
  });
});
