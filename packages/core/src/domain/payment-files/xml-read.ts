/**
 * Reading an uploaded ISO 20022 file, safely and once: bounds on the bytes and the shape first, then
 * libxml2 (libxml2-wasm, docs/reference/libraries.md) parses it with no DTD, no entity expansion and
 * no network, validates it against the official XSD (`xsd/`, compiled once per process), and the
 * same parsed tree is copied into plain objects for the readers. Reading the tree the validator saw
 * (not a second parser's) means no difference between what was validated and what is paid.
 */
import { readFileSync } from 'node:fs';
import { ParseOption, XmlDocument, XmlElement, XmlParseError, XmlValidateError, XsdValidator } from 'libxml2-wasm';
import { PaymentFileError, type PaymentFileProblem } from './errors.ts';

const MESSAGES = ['pain.001.001.09', 'pain.001.001.03', 'pain.002.001.10', 'camt.054.001.08'] as const;
export type Message = (typeof MESSAGES)[number];

export const namespaceOf = (message: Message) => `urn:iso:std:iso:20022:tech:xsd:${message}`;

/** An element as the readers see it: its local name, its line, its attributes, its element children or its text. */
export interface XmlNode {
  name: string;
  line: number;
  attrs: Record<string, string>;
  children: XmlNode[];
  /** The element's text when it has no element children (as libxml2 read it: entities and character references resolved). */
  text: string;
}

export interface ReadBounds {
  /** Bytes of the file. */
  maxBytes: number;
  /** Elements in the whole document, counted before validation. */
  maxElements: number;
  /** Nesting depth (the root is depth 1); a valid pain.001 is about 12 deep. */
  maxDepth: number;
}

/**
 * The compiled schemas, one per message, built on first use and kept for the process (a schema is
 * immutable once compiled; compiling pain.001.001.09 takes about 50 ms, validating with it a few).
 * Their source documents stay alive with them: libxml2's compiled schema points into them.
 */
const compiled = new Map<Message, XsdValidator>();

function validatorFor(message: Message): XsdValidator {
  let validator = compiled.get(message);
  if (!validator) {
    const source = readFileSync(new URL(`./xsd/${message}.xsd`, import.meta.url), 'utf8');
    validator = XsdValidator.fromDoc(XmlDocument.fromString(source, { option: SAFE_PARSE }));
    compiled.set(message, validator);
  }
  return validator;
}

/**
 * libxml2's options: no network access and no external entities; entities are not substituted
 * (no NOENT) and no DTD is loaded (no DTDLOAD). A DOCTYPE is refused before parsing anyway.
 */
const SAFE_PARSE = ParseOption.XML_PARSE_NONET | ParseOption.XML_PARSE_NO_XXE;

const UTF8 = new TextDecoder('utf-8', { fatal: true });
const DECLARED_ENCODING = /^\s*<\?xml[^>]*?\sencoding\s*=\s*["']([^"']*)["']/;

const refuse = (message: string, line: number | null = null, reason: 'invalid' | 'too-large' = 'invalid') =>
  new PaymentFileError(message, [{ line, message }], reason);

/** The text of the file, refused when it is too large, not UTF-8, declares another encoding or carries a DTD. */
function textOf(file: Uint8Array | string, bounds: ReadBounds): string {
  const bytes = typeof file === 'string' ? Buffer.byteLength(file, 'utf8') : file.byteLength;
  if (bytes > bounds.maxBytes)
    throw refuse(`The file is ${bytes} bytes; at most ${bounds.maxBytes} are accepted`, null, 'too-large');
  let text: string;
  try {
    text = typeof file === 'string' ? file : UTF8.decode(file);
  } catch {
    throw refuse('The file is not valid UTF-8 (ISO 20022 messages are UTF-8)');
  }
  const encoding = DECLARED_ENCODING.exec(text)?.[1];
  if (encoding !== undefined && !/^utf-?8$/i.test(encoding)) {
    throw refuse(`The file declares encoding "${encoding}"; ISO 20022 messages are UTF-8`, 1);
  }
  // A DOCTYPE is where entities (billion laughs) and external references (XXE) come from; no ISO 20022 message has one.
  const doctype = text.indexOf('<!DOCTYPE');
  if (doctype >= 0) throw refuse('A DOCTYPE (DTD) is not allowed in a payment file', lineAt(text, doctype));
  return text;
}

const lineAt = (text: string, index: number) => {
  let line = 1;
  for (let at = text.indexOf('\n'); at >= 0 && at < index; at = text.indexOf('\n', at + 1)) line += 1;
  return line;
};

const problemsOf = (details: { message: string; line: number }[]): PaymentFileProblem[] =>
  details.map((detail) => ({ line: detail.line > 0 ? detail.line : null, message: detail.message.trim() }));

/**
 * Parses and validates `file` as one of `accepted` (chosen by the root element's namespace) and
 * returns the message and its `Document` element as plain objects. Throws `PaymentFileError`.
 */
export function readValidatedXml(
  file: Uint8Array | string,
  accepted: readonly Message[],
  bounds: ReadBounds,
): { message: Message; root: XmlNode } {
  const text = textOf(file, bounds);
  let doc: XmlDocument;
  try {
    doc = XmlDocument.fromString(text, { option: SAFE_PARSE });
  } catch (error) {
    if (error instanceof XmlParseError) throw new PaymentFileError('The file is not well-formed XML', problemsOf(error.details));
    throw error;
  }
  try {
    const root = doc.root;
    const message = accepted.find((candidate) => namespaceOf(candidate) === root.namespaceUri);
    if (root.name !== 'Document' || !message) {
      const found = `<${root.name}>${root.namespaceUri ? ` in namespace ${root.namespaceUri}` : ' without a namespace'}`;
      throw refuse(`Expected an ISO 20022 <Document> of ${accepted.join(' or ')}; found ${found}`, root.line);
    }
    const elements = doc.eval('count(//*)');
    if (typeof elements !== 'number' || elements > bounds.maxElements) {
      throw refuse(`The file has ${elements} elements; at most ${bounds.maxElements} are accepted`, null, 'too-large');
    }
    const tooDeep = doc.get(`//*[count(ancestor::*) >= ${bounds.maxDepth}]`);
    if (tooDeep) throw refuse(`Elements nest deeper than ${bounds.maxDepth} levels`, tooDeep.line, 'too-large');
    try {
      validatorFor(message).validate(doc);
    } catch (error) {
      if (error instanceof XmlValidateError) {
        throw new PaymentFileError(`The file is not a valid ${message} document (XSD)`, problemsOf(error.details));
      }
      throw error;
    }
    return { message, root: copyOf(root) };
  } finally {
    doc.dispose();
  }
}

/** The element as plain objects; recursion is bounded by the depth checked above. */
function copyOf(element: XmlElement): XmlNode {
  const node: XmlNode = { name: element.name, line: element.line, attrs: {}, children: [], text: '' };
  for (const attr of element.attrs) node.attrs[attr.name] = attr.value;
  for (let child = element.firstChild; child; child = child.next) {
    if (child instanceof XmlElement) node.children.push(copyOf(child));
  }
  if (node.children.length === 0) node.text = element.content;
  return node;
}

/** The first child named `name`, if any. */
export const childOf = (node: XmlNode | undefined, name: string): XmlNode | undefined =>
  node?.children.find((child) => child.name === name);

/** The node at a path of child names (`childAt(tx, 'CdtrAcct', 'Id', 'IBAN')`), if any. */
export function childAt(node: XmlNode | undefined, ...names: string[]): XmlNode | undefined {
  let at = node;
  for (const name of names) at = childOf(at, name);
  return at;
}

export const childrenOf = (node: XmlNode | undefined, name: string): XmlNode[] =>
  node ? node.children.filter((child) => child.name === name) : [];
