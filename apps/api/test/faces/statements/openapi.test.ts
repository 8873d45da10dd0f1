/** The statement face's own OpenAPI document: served, valid for Spectral (as our main document), and true to the router's schema. */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildStatementsOpenApi } from '../../../src/faces/statements/openapi.ts';
import { startTestApp, type TestApp } from '../../helpers.ts';

const API_DIR = path.resolve(import.meta.dirname, '../../..');

let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(() => app?.close());

describe('/faces/statements/openapi.json', () => {
  it('describes both routes and the formats the router accepts, with no Spectral errors', { timeout: 120_000 }, async () => {
    const res = await app.call('GET', '/faces/statements/openapi.json');
    expect(res.status).toBe(200);
    const document = res.body;
    expect(Object.keys(document.paths)).toEqual(['/v1/accounts/{id}/statement', '/api/owner/{owner}/accounts/{id}/statement']);
    const format = document.paths['/v1/accounts/{id}/statement'].get.parameters.find(
      (p: { name: string }) => p.name === 'format',
    );
    expect(format).toMatchObject({ required: true, schema: { enum: ['camt.053', 'camt.052', 'mt940', 'ofx', 'ofx1', 'csv'] } });

    const dir = await mkdtemp(path.join(tmpdir(), 'sandbank-statements-openapi-'));
    const file = path.join(dir, 'openapi.json');
    // Linted with an https server, as the main document is (the test app's own URL is http).
    await writeFile(file, JSON.stringify(buildStatementsOpenApi('https://sandbank.example'), null, 2));
    const spectral = path.join(API_DIR, 'node_modules/@stoplight/spectral-cli/dist/index.js');
    const args = [spectral, 'lint', file, '--ruleset', path.join(API_DIR, '.spectral.yaml'), '--format', 'json', '--quiet'];
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: API_DIR }).catch((error) => error);
    await rm(dir, { recursive: true });
    const errors = (JSON.parse(stdout) as { code: string; severity: number; message: string; path: string[] }[]).filter(
      (r) => r.severity === 0,
    );
    expect(errors.map((error) => `${error.code} at ${error.path.join('.')}: ${error.message}`)).toEqual([]);
  });
});
