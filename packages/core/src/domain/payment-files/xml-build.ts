/**
 * Writing ISO 20022 documents: element trees given to fast-xml-parser's `XMLBuilder`, which escapes
 * every text and attribute (`&`, `<`, `>`, quotes). Nothing is assembled from strings. Text from our
 * data is first made XML-safe and one line (control characters, which XML 1.0 cannot carry even
 * escaped, become spaces) and cut to the schema's MaxNText; identifiers are never cut (a cut id would
 * name something else), so a too-long one is a bug and throws.
 */
import { XMLBuilder } from 'fast-xml-parser';

/** An element tree: `@name` attributes, `#text` text, arrays for repeated elements. */
export type XmlTree = { [name: string]: XmlValue };
type XmlValue = string | XmlTree | XmlTree[] | string[] | undefined;

/** `jPath: false` (fast-xml-builder's, absent from the type declarations): no path string built per element. */
const OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  indentBy: '  ',
  suppressEmptyNode: false,
  processEntities: true,
  jPath: false,
};
const BUILDER = new XMLBuilder(OPTIONS);

export function buildDocument(namespace: string, body: XmlTree): string {
  return BUILDER.build({
    '?xml': { '@version': '1.0', '@encoding': 'UTF-8' },
    Document: { '@xmlns': namespace, ...body },
  });
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: these are the characters XML 1.0 refuses.
const NOT_XML = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f\ufffe\uffff]/g;
const HAS_NOT_XML = new RegExp(NOT_XML.source);

/** One line of XML-safe text, at most `max` characters (code points), cut with `…`; null when nothing is left. */
export function text(value: string | null | undefined, max: number): string | null {
  const line = (value ?? '').replace(NOT_XML, ' ').replace(/\s+/g, ' ').trim();
  if (!line) return null;
  const chars = [...line];
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join('')}…`;
}

/** An identifier for a Max35Text: as it is, or an error (ours are short by construction). */
export function identifier(value: string): string {
  if (value.length === 0 || [...value].length > 35 || HAS_NOT_XML.test(value) || /^\s|\s$/.test(value)) {
    throw new Error(`Not a Max35Text identifier: ${JSON.stringify(value)}`);
  }
  return value;
}

/** `Max105Text` and the like, repeated: `message` cut into pieces of at most `max` characters (at most `count`). */
export function pieces(message: string | null | undefined, max: number, count: number): string[] {
  const line = text(message, max * count);
  if (!line) return [];
  const chars = [...line];
  const out: string[] = [];
  for (let at = 0; at < chars.length && out.length < count; at += max)
    out.push(
      chars
        .slice(at, at + max)
        .join('')
        .trim(),
    );
  return out.filter(Boolean);
}

/** An instant as `xs:dateTime` in UTC with milliseconds (`2026-11-29T10:00:00.000Z`). */
export const dateTime = (at: Date | string) => new Date(at).toISOString();
