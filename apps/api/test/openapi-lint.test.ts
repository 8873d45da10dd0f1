import path from 'node:path';
import { buildOpenApiDocument } from '@sandbank/core';
import { describe, expect, it } from 'vitest';
import type { Loose } from './helpers.ts';
import { spectralErrors } from './spectral.ts';

const _API_DIR = path.resolve(import.meta.dirname, '..');
const document = buildOpenApiDocument({ serverUrl: 'https://sandbank.example' });

describe('OpenAPI document', () => {
  it('has no Spectral errors (spectral:oas + OWASP)', { timeout: 120_000 }, async () => {
    expect(await spectralErrors(document)).toEqual([]);
  });

  it('documents every operation: summary, description, tag, contract errors with examples', () => {
    const operations = Object.values(document.paths ?? {}).flatMap((item) => Object.values(item ?? {}));
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations as Record<string, Loose>[]) {
      expect(operation.summary, operation.operationId).toBeTruthy();
      expect(operation.description, operation.operationId).toBeTruthy();
      expect(operation.tags?.length, operation.operationId).toBe(1);
      const responses = Object.entries(operation.responses as Record<string, Loose>);
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
    const login = document.paths?.['/v1/auth/login']?.post as Record<string, Loose>;
    expect(login.responses['401'].description).toContain('INVALID_CREDENTIALS');
    expect(login.security).toEqual([{}]);
    const register = document.paths?.['/v1/auth/register']?.post as Record<string, Loose>;
    expect(register.responses['409'].content['application/json'].example.code).toBe('EMAIL_TAKEN');
  });
});
