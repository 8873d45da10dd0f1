import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { GENERATED_FILE, renderOpenApiTypes } from '../scripts/openapi-types.ts';

describe('openapi.gen.ts', () => {
  it('matches the OpenAPI document (run `pnpm --filter @sandbank/client generate` if not)', async () => {
    expect(await readFile(GENERATED_FILE, 'utf8')).toBe(await renderOpenApiTypes());
  });
});
