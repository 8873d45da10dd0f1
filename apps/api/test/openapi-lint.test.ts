/**
 * The generated OpenAPI document passes Spectral (the OpenAPI ruleset and OWASP's API Security
 * ruleset, tuned in `.spectral.yaml`), and every operation is documented: summary, description,
 * tag, contract errors and examples.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { buildOpenApiDocument } from '@sandbank/core';
import { describe, expect, it } from 'vitest';

const API_DIR = path.resolve(import.meta.dirname, '..');
const document = buildOpenApiDocument({ serverUrl: 'https://sandbank.example' });

interface SpectralResult {
  code: string;
  severity: number;
  message: string;
  path: string[];
}

describe('OpenAPI document', () => {
  it('has no Spectral errors (spectral:oas + OWASP)', { timeout: 120_000 }, async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'sandbank-openapi-'));
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    const spectral = path.join(API_DIR, 'node_modules/@stoplight/spectral-cli/dist/index.js');
    const args = [spectral, 'lint', file, '--ruleset', path.join(API_DIR, '.spectral.yaml'), '--format', 'json', '--quiet'];
    // Spectral exits non-zero when it finds errors; the JSON on stdout says which.
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: API_DIR }).catch((error) => error);
    await rm(dir, { recursive: true });
    const results = JSON.parse(stdout) as SpectralResult[];
    const errors = results.filter((result) => result.severity === 0);
    expect(errors.map((error) => `${error.code} at ${error.path.join('.')}: ${error.message}`)).toEqual([]);
  });

  it('documents every operation: summary, description, tag, contract errors with examples', () => {
    const operations = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item ?? {}));
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations as Record<string, any>[]) {
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.description, operation.operationId).toBeTruthy();
      expect(operation.tags?.length, operation.operationId).toBe(1);
      const responses = Object.entries(operation.responses as Record<string, any>);
      const success = responses.filter(([status]) => status.startsWith('2'));
      expect(success.length, operation.operationId).toBe(1);
      expect(success[0]?.[1].content['application/json'].example, operation.operationId).toBeDefined();
      for (const [status, response] of responses.filter(([code]) => Number(code) >= 400)) {
        const media = response.content['application/json'];
        expect(media.schema, `${operation.operationId} ${status}`).toEqual({ $ref: '#/components/schemas/Error' });
        expect(media.example.code, `${operation.operationId} ${status}`).toMatch(/^[A-Z_]+$/);
      }
      expect(operation.responses['429'].headers['Retry-After'], operation.operationId).toBeDefined();
      if (operation.requestBody) expect(operation.requestBody.content['application/json'].example).toBeDefined();
    }
  });

  it('lists the contract codes each operation declares', () => {
    const login = document.paths?.['/v1/auth/login']?.post as Record<string, any>;
    expect(login.responses['401'].description).toContain('INVALID_CREDENTIALS');
    expect(login.security).toEqual([{}]);
    const register = document.paths?.['/v1/auth/register']?.post as Record<string, any>;
    expect(register.responses['409'].content['application/json'].example.code).toBe('EMAIL_TAKEN');
  });
});
