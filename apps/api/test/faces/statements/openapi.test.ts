import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildFaceDocument } from '../../../src/faces/openapi-json.ts';
import { statementsFace } from '../../../src/faces/statements/face.ts';
import { startTestApp, type TestApp } from '../../helpers.ts';
import { spectralErrors } from '../../spectral.ts';

const _API_DIR = path.resolve(import.meta.dirname, '../../..');

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

    // Linted with an https server, as the main document is (the test app's own URL is http).
    expect(await spectralErrors(buildFaceDocument(statementsFace, 'https://sandbank.example'))).toEqual([]);
  });
});
