/**
 * How deep JSON input may nest, checked on the raw text before it is parsed.
 *
 * Why: `JSON.parse` builds a 20,000-deep array from 40 KB without complaint, and every walk after
 * it (our storable-text check, zod, tRPC re-serialising a parsed body) then recurses as deep — a
 * stack overflow (500) or, with a path copied per level, quadratic CPU that stalled the whole API.
 * So depth is bounded where input enters, before anything walks it: one linear scan over the text
 * without recursion, and only then `JSON.parse`. No library we found does this (secure-json-parse
 * and bourne guard prototypes, not depth); the scan is the few lines below.
 *
 * Every JSON entry point uses it: request bodies (apps/api `jsonBody`, also for the faces' own
 * routers), tRPC's `?input=`, and anything a face parses from text (`parseJsonWithin`).
 */
import { AppError } from '../errors.ts';

/** The deepest nesting of arrays and objects any input may have; our own inputs need fewer than 8. */
export const MAX_JSON_DEPTH = 32;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const OPEN_OBJECT = 0x7b;
const CLOSE_ARRAY = 0x5d;
const CLOSE_OBJECT = 0x7d;

/**
 * Whether `text` (a string, or UTF-8 bytes: the structural characters are ASCII and never occur
 * inside a multi-byte sequence) opens more than `max` arrays and objects inside one another.
 * Brackets inside strings do not count. Malformed text is left to the parser. One loop per kind of
 * input keeps each monomorphic: a shared loop over `string | Uint8Array`, fed both, took 1.4–2× as
 * long on a 34 KB body (measured in turns in one process).
 */
export function nestsDeeperThan(text: string | Uint8Array, max = MAX_JSON_DEPTH): boolean {
  if (text.length <= max) return false;
  return typeof text === 'string' ? textNestsDeeper(text, max) : bytesNestDeeper(text, max);
}

function bytesNestDeeper(bytes: Uint8Array, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < bytes.length; index += 1) {
    const code = bytes[index];
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

function textNestsDeeper(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index += 1) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      if (++depth > max) return true;
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth -= 1;
  }
  return false;
}

/**
 * Thrown for input that nests too deep. Shaped like body-parser's errors (`type`, `status`), so a
 * `verify` hook may throw it and the host's error handler tell it apart (`entity.too.deep`); each
 * protocol maps it to its own error body.
 */
export class JsonTooDeepError extends Error {
  readonly type = 'entity.too.deep';
  readonly status = 400;
  readonly expose = true;
  readonly maxDepth: number;

  constructor(maxDepth: number) {
    super(`The JSON nests deeper than ${maxDepth} levels of arrays and objects`);
    this.maxDepth = maxDepth;
  }
}

/** `JSON.parse`, refusing (JsonTooDeepError) text that nests deeper than `max` before parsing it. */
export function parseJsonWithin(text: string, max = MAX_JSON_DEPTH): unknown {
  if (nestsDeeperThan(text, max)) throw new JsonTooDeepError(max);
  return JSON.parse(text);
}

/** Our contract's answer to input that nests too deep: 400 VALIDATION_ERROR at `path`, naming the bound. */
export function tooDeep(path: string, max = MAX_JSON_DEPTH): AppError {
  const message = `At most ${max} levels of nested arrays and objects`;
  return new AppError('VALIDATION_ERROR', `The JSON ${path === '(body)' ? 'body' : path} nests deeper than ${max} levels`, {
    details: [{ path, message }],
  });
}
