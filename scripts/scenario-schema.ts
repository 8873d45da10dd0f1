/**
 * Writes docs/scenario.schema.json, the published JSON Schema of scenario documents, from the one
 * zod definition (packages/core/src/domain/scenarios/scenario-document.ts). A test fails when the
 * file and the API's GET /v1/scenarios/schema differ: run `pnpm scenario-schema` after a change.
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { scenarioJsonSchema } from '../packages/core/src/domain/scenarios/scenario-document.ts';

const target = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../docs/scenario.schema.json');
writeFileSync(target, `${JSON.stringify(scenarioJsonSchema(), null, 2)}\n`);
console.log(`wrote ${path.relative(process.cwd(), target)}`);
