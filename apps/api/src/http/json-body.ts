/**
 * The one JSON body parser of the HTTP host: Express's, with the raw bytes checked first for depth
 * (core's `nestsDeeperThan`, a linear scan) so a body nested deeper than MAX_JSON_DEPTH is refused
 * before `JSON.parse` builds it and anything walks it. The refusal is a `JsonTooDeepError`
 * (`type: 'entity.too.deep'`, status 400) passed to the router's error handler, beside body-parser's
 * own (`entity.parse.failed`, `entity.too.large`): ours maps it to the contract (errors.ts); a face
 * mounts `jsonBody` in its own router and maps it to its protocol's error.
 *
 * JSON is UTF-8 (RFC 8259 §8.1): another charset is 415, since the byte scan reads UTF-8.
 */
import { JsonTooDeepError, MAX_JSON_DEPTH, nestsDeeperThan } from '@sandbank/core';
import express, { type RequestHandler } from 'express';

class UnsupportedCharsetError extends Error {
  readonly type = 'charset.unsupported';
  readonly status = 415;
}

function verifyDepth(_req: unknown, _res: unknown, body: Buffer, encoding: string): void {
  if (encoding.toLowerCase() !== 'utf-8') throw new UnsupportedCharsetError(`unsupported charset "${encoding}"`);
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) throw new JsonTooDeepError(MAX_JSON_DEPTH);
}

type JsonOptions = NonNullable<Parameters<typeof express.json>[0]>;

/** `express.json(options)` that refuses bodies nested deeper than MAX_JSON_DEPTH. */
export const jsonBody = (options: Pick<JsonOptions, 'type' | 'strict'> & { limit: string }): RequestHandler =>
  express.json({ ...options, verify: verifyDepth });

/** The `type`s of the errors `jsonBody` passes on for a body the client got wrong (a face answers them in its own contract). */
export const BODY_ERROR_TYPES: ReadonlySet<string> = new Set([
  'entity.parse.failed',
  'entity.too.large',
  'entity.too.deep',
  'encoding.unsupported',
  'charset.unsupported',
]);
