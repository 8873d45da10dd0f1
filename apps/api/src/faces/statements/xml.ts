/**
 * XML for the statement writers, streamed: fast-xml-parser's XMLBuilder (which escapes `&`, `<`,
 * `>`, quotes in every text and attribute) writes the document around the entries once, with a
 * marked place where they go, and then each page of entries as a fragment at that place's depth.
 * Nothing is assembled from unescaped text, and no document tree of a year's entries is ever held.
 */
import { XMLBuilder } from 'fast-xml-parser';

/** An element tree as the builder takes it: `@name` attributes, `#text` text, arrays for repeats. */
export type XmlTree = { [name: string]: XmlValue };
type XmlValue = string | XmlTree | XmlTree[] | undefined;

const INDENT = '  ';
const OPTIONS = {
  ignoreAttributes: false,
  attributeNamePrefix: '@',
  format: true,
  indentBy: INDENT,
  suppressEmptyNode: false,
  processEntities: true,
  // No path matching (no stop nodes, no callbacks): the builder skips building a path per element.
  jPath: false,
};
/**
 * The builder's escapes. XML (camt): its five, the builder's default. OFX defines only `&lt;`,
 * `&gt;` and `&amp;` (OFX 1.0.2 §2.3.2.1; SGML importers print `&apos;` as it stands), so OFX text
 * escapes those three — `entities` is the builder's own option (fast-xml-builder's defaults list
 * them the same way), absent from its type declarations.
 */
const OFX_ENTITIES = [
  { regex: /&/g, val: '&amp;' }, // first
  { regex: />/g, val: '&gt;' },
  { regex: /</g, val: '&lt;' },
];
const BUILDERS = {
  xml: new XMLBuilder(OPTIONS),
  ofx: new XMLBuilder({ ...OPTIONS, entities: OFX_ENTITIES } as typeof OPTIONS),
};

/** The text of the element that marks where the entries go (text cannot carry an unescaped `<`, so no value can fake it). */
export const ENTRIES_HERE = 'SANDBANK-ENTRIES-HERE';

export interface XmlFrame {
  /** Everything before the entries, ending with a line break. */
  head: string;
  /** Everything after them. */
  tail: string;
  /** Elements named as the marked one, one per tree, indented to its depth; ends with a line break. */
  fragment(elements: XmlTree[]): string;
}

/** `tree` must hold `{ [entryName]: ENTRIES_HERE }` exactly once. */
export function xmlFrame(tree: XmlTree, entryName: string, escapes: keyof typeof BUILDERS = 'xml'): XmlFrame {
  const builder = BUILDERS[escapes];
  const text: string = builder.build(tree);
  const mark = `<${entryName}>${ENTRIES_HERE}</${entryName}>`;
  const at = text.indexOf(mark);
  if (at < 0 || text.indexOf(mark, at + 1) >= 0) throw new Error(`Expected one <${entryName}> place in the document`);
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const indent = text.slice(lineStart, at);
  return {
    head: text.slice(0, lineStart),
    tail: text.slice(at + mark.length).replace(/^\n/, ''),
    fragment(elements) {
      if (elements.length === 0) return '';
      const built: string = builder.build({ [entryName]: elements });
      let out = '';
      for (const line of built.split('\n')) if (line) out += `${indent}${line}\n`;
      return out;
    },
  };
}
