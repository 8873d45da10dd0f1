/**
 * Hostile input into every procedure (walked from the router, so new procedures are covered without
 * anyone adding them): never a 5xx.
 * - Arbitrary Unicode, and dates, timestamps and durations of any range, into every string field.
 *   Strings PostgreSQL cannot store (U+0000, lone UTF-16 surrogates) are a 400 VALIDATION_ERROR
 *   naming the field.
 * - JSON nested to any depth into any field, known or not, of the body (REST) or of tRPC's
 *   `?input=`: deeper than MAX_JSON_DEPTH in all is a 400 VALIDATION_ERROR naming the bound.
 */
import { appRouter, isStorable, MAX_JSON_DEPTH, procedureMetas } from '@sandbank/core';

import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { startTestApp, type TestApp, type TestUser } from './helpers.ts';
import { dayArb, depthArb, durationArb, instantArb, nestedJson } from './input-generators.ts';

let app: TestApp;
let user: TestUser;
let apiKey: string;
beforeAll(async () => {
  app = await startTestApp({ LOG_LEVEL: 'silent' });
  user = await app.createUser();
  apiKey = (await app.call('POST', '/v1/api-keys', { token: user.accessToken, body: { name: 'unicode' } })).body.data.key;
});
afterAll(() => app.close());

/** Any string: full Unicode, raw UTF-16 units (lone surrogates included), and the known troublemakers. */
const anyString = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.string({ unit: 'binary', maxLength: 20 }),
  fc.string({ unit: fc.integer({ min: 0xd800, max: 0xdfff }).map((code) => String.fromCharCode(code)), maxLength: 3 }),
  fc.constantFrom('\u0000', 'a\u0000b', '\ud800', 'x\udc00y', '😀\ud83d', ''),
  instantArb.map((instant) => instant.text),
  dayArb.map((day) => day.text),
  durationArb.map((duration) => duration.value),
);

interface Operation {
  name: string;
  method: string;
  path: string;
  apiKey: boolean;
  /** The input's top-level string fields (body, query or path). */
  strings: string[];
}

function operations(): Operation[] {
  const procedures = appRouter._def.procedures as unknown as Record<string, { _def: { inputs: z.ZodType[] } }>;
  return [...procedureMetas()].flatMap(([name, meta]) => {
    if (!meta.openapi) return [];
    const input = procedures[name]?._def.inputs[0];
    const schema = input
      ? (z.toJSONSchema(input, { io: 'input', unrepresentable: 'any' }) as { properties?: Record<string, { type?: string }> })
      : {};
    const strings = Object.entries(schema.properties ?? {})
      .filter(([, property]) => property.type === 'string' || property.type === undefined)
      .map(([field]) => field);
    return [{ name, method: meta.openapi.method, path: meta.openapi.path, apiKey: meta.auth === 'apiKey', strings }];
  });
}

/** Path segments cannot carry a lone surrogate in a URL: those become U+FFFD, as any client would send them. */
const segment = (value: string) => encodeURIComponent(value.toWellFormed());

describe.each(operations().filter((op) => op.strings.length > 0))('$name ($method $path)', (op) => {
  it('never answers 5xx to arbitrary Unicode in its string fields, and refuses unstorable body strings with 400', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record(Object.fromEntries(op.strings.map((field) => [field, anyString]))), async (values) => {
        let path = op.path;
        const rest: Record<string, string> = {};
        for (const [field, value] of Object.entries(values)) {
          if (path.includes(`{${field}}`)) path = path.replace(`{${field}}`, segment(value) || 'x');
          else rest[field] = value;
        }
        const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
        if (!hasBody && Object.keys(rest).length > 0) path += `?${new URLSearchParams(rest)}`;
        const token = op.apiKey ? apiKey : user.accessToken;
        const res = await app.call(op.method, path, hasBody ? { token, body: rest } : { token });
        expect(res.status, `${op.method} ${path} ${JSON.stringify(rest)} → ${JSON.stringify(res.body)}`).toBeLessThan(500);
        const unstorable = hasBody ? Object.entries(rest).find(([, value]) => !isStorable(value)) : undefined;
        if (unstorable) {
          expect(res.status).toBe(400);
          expect(res.body.code).toBe('VALIDATION_ERROR');
          expect(res.body.details).toContainEqual({ path: unstorable[0], message: expect.any(String) });
        }
      }),
      { numRuns: 12, seed: 11 },
    );
  });
});

it('walks every procedure with string input', () => {
  expect(operations().filter((op) => op.strings.length > 0).length).toBeGreaterThanOrEqual(15);
});

describe.each(operations())('$name ($method $path) with nested JSON', (op) => {
  it('never answers 5xx to a field nested to any depth, and refuses deeper than the bound with 400', async () => {
    const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method);
    // A query's input travels in the URL (at most ~16 KB): shallower there.
    const depths = hasBody ? depthArb : depthArb.map((depth) => Math.min(depth, 1_000));
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...op.strings, 'unknownField'), depths, async (field, depth) => {
        // The input object is one level; the field's value nests `depth` more.
        const tooDeep = depth + 1 > MAX_JSON_DEPTH;
        const token = op.apiKey ? apiKey : user.accessToken;
        const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
        const json = `{${JSON.stringify(field)}:${nestedJson(depth)}}`;
        const response = hasBody
          ? await fetch(app.url + op.path.replace(/\{\w+\}/g, 'x'), { method: op.method, headers, body: json })
          : await fetch(`${app.url}/trpc/${op.name}?input=${encodeURIComponent(json)}`, { headers });
        const body = (await response.json()) as { code?: string; details?: { path: string }[] };
        const why = `${op.method} ${op.name} ${field} at depth ${depth} → ${JSON.stringify(body).slice(0, 300)}`;
        expect(response.status, why).toBeLessThan(500);
        if (tooDeep) {
          expect([response.status, body.code, body.details?.[0]?.path], why).toEqual([
            400,
            'VALIDATION_ERROR',
            hasBody ? '(body)' : 'input',
          ]);
        }
      }),
      { numRuns: 8, seed: 27 },
    );
  });
});
