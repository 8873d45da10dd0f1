import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../src/faces/plaid/endpoints.ts';
import { type Loose, startTestApp, type TestApp } from './helpers.ts';
import { spectralErrors } from './spectral.ts';

const _API_DIR = path.resolve(import.meta.dirname, '..');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('the Plaid face’s OpenAPI document', () => {
  it('is served, describes every endpoint, and has no Spectral errors', { timeout: 120_000 }, async () => {
    const response = await fetch(`${app.url}/faces/plaid/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, Loose> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(endpoints).sort());
    const sync = document.paths['/transactions/sync'].post;
    expect(sync.requestBody.content['application/json'].schema.properties.count).toMatchObject({ minimum: 1, maximum: 500 });
    expect(Object.keys(sync.responses['200'].content['application/json'].schema.properties)).toContain('next_cursor');

    expect(await spectralErrors(document, 'extends: ["spectral:oas"]\n')).toEqual([]);
  });
});
