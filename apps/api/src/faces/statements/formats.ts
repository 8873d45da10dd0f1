/**
 * The statement formats (docs/faces/statements.md), one writer each over the same statement model: what the file
 * is called and typed as, its character encoding, and whether it needs the pending entries. Every
 * writer streams: it yields the file's text a page of entries at a time. The list here is the list
 * the `format` parameter accepts.
 */
import { type CamtVersion, writeCamt } from './camt.ts';
import { writeCsv } from './csv.ts';
import { type Mt940Encoding, writeMt940 } from './mt940.ts';
import { writeOfx1, writeOfx2 } from './ofx.ts';
import type { StatementSource } from './source.ts';

interface WriteOptions {
  version: CamtVersion;
  encoding: Mt940Encoding;
}

interface StatementFormat {
  contentType(options: WriteOptions): string;
  extension: string;
  /** The file's encoding (iconv-lite's name); UTF-8 unless given. */
  encoding?(options: WriteOptions): Mt940Encoding;
  withPending?: true;
  write(source: StatementSource, options: WriteOptions): AsyncIterable<string>;
}

export const FORMATS = {
  'camt.053': {
    contentType: () => 'application/xml; charset=utf-8',
    extension: 'xml',
    write: (source, { version }) => writeCamt(source, 'camt.053', version),
  },
  'camt.052': {
    contentType: () => 'application/xml; charset=utf-8',
    extension: 'xml',
    withPending: true,
    write: (source, { version }) => writeCamt(source, 'camt.052', version),
  },
  mt940: {
    contentType: ({ encoding }) => `text/plain; charset=${encoding === 'cp852' ? 'ibm852' : encoding}`,
    extension: 'sta',
    encoding: ({ encoding }) => encoding,
    write: writeMt940,
  },
  ofx: { contentType: () => 'application/x-ofx; charset=utf-8', extension: 'ofx', write: writeOfx2 },
  ofx1: { contentType: () => 'application/x-ofx; charset=utf-8', extension: 'ofx', write: writeOfx1 },
  csv: { contentType: () => 'text/csv; charset=utf-8; header=present', extension: 'csv', write: writeCsv },
} satisfies Record<string, StatementFormat>;

export type FormatName = keyof typeof FORMATS;
export const FORMAT_NAMES = Object.keys(FORMATS) as FormatName[];
