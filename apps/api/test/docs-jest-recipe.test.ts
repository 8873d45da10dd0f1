/**
 * The jest recipe of docs/guides/testing-your-app.md is the tested example's code, verbatim: its jest
 * config, its global setup, the test file's imports and suite, and the package.json's test script and
 * dev dependencies (examples/worlds-suite-jest, run by `pnpm example:worlds` in CI). An edit of one
 * without the other fails here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const guide = read('docs/guides/testing-your-app.md');
const example = (file: string) => read(`examples/worlds-suite-jest/${file}`);

describe('the jest recipe in the testing guide', () => {
  it('shows jest.config.js and test/global-setup.ts as they are', () => {
    expect(guide).toContain(`\`\`\`js\n${example('jest.config.js')}\`\`\``);
    expect(guide).toContain(`\`\`\`ts\n${example('test/global-setup.ts')}\`\`\``);
  });

  it('shows the test file’s imports, its snapshot and its suite as they are', () => {
    const test = example('test/budget.test.ts');
    const imports = test.slice(test.indexOf('import { describe'), test.indexOf('const bank ='));
    const suite = test.slice(test.indexOf("describe('"));
    expect(imports).toContain('process.env.BANK_SNAPSHOT');
    expect(guide).toContain(imports);
    expect(guide).toContain(suite);
  });

  it('names the test script and the dev dependencies the example installs', () => {
    const pkg = JSON.parse(example('package.json')) as { scripts: { test: string }; devDependencies: Record<string, string> };
    expect(guide).toContain(`"test": "${pkg.scripts.test}"`);
    for (const [name, version] of Object.entries(pkg.devDependencies)) expect(guide).toContain(`"${name}": "${version}"`);
  });
});
