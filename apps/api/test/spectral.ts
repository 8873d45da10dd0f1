/**
 * Lints an OpenAPI document with Spectral's CLI, as `openapi-lint.test.ts` and every face's
 * document test do. Returns the errors (severity 0) as `code at path: message`: [] when clean.
 * `ruleset` is a ruleset's YAML; by default the API's own (.spectral.yaml: spectral:oas + OWASP).
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';

export const API_DIR = path.resolve(import.meta.dirname, '..');

export async function spectralErrors(document: unknown, ruleset?: string): Promise<string[]> {
  // Under the package, not the system's temp folder: Spectral resolves the packages a ruleset extends
  // (`@stoplight/spectral-owasp-ruleset`) from the ruleset's own folder.
  const cache = path.join(API_DIR, 'node_modules/.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(path.join(cache, 'spectral-'));
  try {
    const file = path.join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(document, null, 2));
    let rules = path.join(API_DIR, '.spectral.yaml');
    if (ruleset !== undefined) {
      rules = path.join(dir, 'ruleset.yaml');
      await writeFile(rules, ruleset);
    }
    const spectral = path.join(API_DIR, 'node_modules/@stoplight/spectral-cli/dist/index.js');
    const args = [spectral, 'lint', file, '--ruleset', rules, '--format', 'json', '--quiet'];
    // Spectral exits non-zero when it finds errors; the JSON on stdout says which.
    const { stdout } = await promisify(execFile)(process.execPath, args, { cwd: API_DIR }).catch((error) => error);
    const results = JSON.parse(stdout) as { code: string; severity: number; message: string; path: string[] }[];
    return results
      .filter((result) => result.severity === 0)
      .map((error) => `${error.code} at ${error.path.join('.')}: ${error.message}`);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
