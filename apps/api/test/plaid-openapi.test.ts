/**
 * `/faces/plaid/openapi.json`: served, generated from the face's zod schemas, one POST per endpoint
 * the face routes, and valid OpenAPI 3.1 by Spectral's `spectral:oas` ruleset.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { endpoints } from '../src/faces/plaid/endpoints.ts';
import { startTestApp, type TestApp } from './helpers.ts';

const API_DIR = path.resolve(import.meta.dirname, '..');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('the Plaid face’s OpenAPI document', () => {
  it('is served, describes every endpoint, and has no Spectral errors', { timeout: 120_000 }, async () => {
    const response = await fetch(`${app.url}/faces/plaid/openapi.json`);
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, any> };
    expect(document.openapi).toBe('3.1.0');
    expect(Object.keys(document.paths).sort()).toEqual(Object.keys(endpoints).sort());
    const sync = document.paths['/transactions/sync'].post;
    expect(sync.requestBody.content['application/json'].schema.properties.count).toMatchObject({ minimum: 1, maximum: 500 });
    expect(Object.keys(sync.responses['200'].content['application/json'].schema.properties)).toContain('next_cursor');

    const dir = await mkdtemp(path.join(tmpdir(), 'sandbank-plaid-openapi-'));
    const file = path.join(dir, 'openapi.json');
    const ruleset = path.join(dir, 'ruleset.yaml');
    await writeFile(file, JSON.stringify(document, null, 2));
    await writeFile(ruleset, 'extends: ["spectral:oas"]\n');
    const spectral = path.join(API_DIR, 'node_modules/@stoplight/spectral-cli/dist/index.js');
    const args = [spectral, 'lint', file, '--ruleset', ruleset, '--format', 'json', '--quiet'];
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: API_DIR }).catch((error) => error);
    await rm(dir, { recursive: true });
    const errors = (JSON.parse(stdout) as { code: string; severity: number; message: string; path: string[] }[]).filter(
      (result) => result.severity === 0,
    );
    expect(errors.map((error) => `${error.code} at ${error.path.join('.')}: ${error.message}`)).toEqual([]);
  });
});
