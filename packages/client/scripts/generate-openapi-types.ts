/** `pnpm --filter @sandbank/client generate`: rewrites `src/openapi.gen.ts`. */
import { writeFile } from 'node:fs/promises';
import { GENERATED_FILE, renderOpenApiTypes } from './openapi-types.ts';

await writeFile(GENERATED_FILE, await renderOpenApiTypes());
console.log(`wrote ${GENERATED_FILE.pathname}`);
