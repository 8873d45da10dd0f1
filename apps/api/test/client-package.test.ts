/**
 * `@sandbank/client` as an app outside this repository gets it: packed by pnpm (its `prepack`
 * builds dist/), installed by npm into an empty folder (offline: its registry dependency is packed
 * from this repository's install, so the registry's mood cannot fail the test), then used from plain JavaScript against a
 * running Sandbank and type-checked by tsc with strict settings and no `skipLibCheck`.
 */
import { execFile, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { signatureHeaders } from '@sandbank/webhooks';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestApp, type TestApp } from './helpers.ts';
import { packDependencies, packWorkspacePackage } from './pack.ts';

const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sandbank-client-'));
let app: TestApp;
let tarball: string;
let dependencies: string[];

beforeAll(async () => {
  app = await startTestApp();
  tarball = packWorkspacePackage('client', folder);
  dependencies = packDependencies('client', path.join(folder, 'dependencies'));
}, 120_000);
afterAll(async () => {
  await app?.close();
  fs.rmSync(folder, { recursive: true, force: true });
});

it('installs from its tarball into an empty folder and works there, from JavaScript and under tsc', async () => {
  expect(fs.existsSync(tarball)).toBe(true);
  const project = path.join(folder, 'app');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'package.json'), JSON.stringify({ name: 'an-app', private: true, type: 'module' }));
  // Offline: its dependency (openapi-fetch, and its own) comes packed from this repository's install.
  execFileSync('npm', ['install', '--no-audit', '--no-fund', '--offline', '--loglevel=error', tarball, ...dependencies], {
    cwd: project,
    encoding: 'utf8',
  });
  const installed = JSON.parse(
    fs.readFileSync(path.join(project, 'node_modules', '@sandbank', 'client', 'package.json'), 'utf8'),
  ) as { dependencies?: Record<string, string> };
  // Nothing of the server comes along: one dependency, no workspace package.
  expect(Object.keys(installed.dependencies ?? {})).toEqual(['openapi-fetch']);
  expect(fs.existsSync(path.join(project, 'node_modules', '@sandbank', 'webhooks'))).toBe(false);

  const body = JSON.stringify({ type: 'transaction.created' });
  const headers = signatureHeaders('whsec-packed', 'evt_1', body);
  // A Standard Webhooks secret, signed by the standardwebhooks package itself: the key is the base64's bytes.
  const standardSecret = `whsec_${Buffer.from('sixteen-byte-key').toString('base64')}`;
  const signedAt = new Date();
  const standardHeaders = {
    'webhook-id': 'evt_1',
    'webhook-timestamp': String(Math.floor(signedAt.getTime() / 1000)),
    'webhook-signature': new Webhook(standardSecret).sign('evt_1', signedAt, body),
  };
  fs.writeFileSync(
    path.join(project, 'use.mjs'),
    `import { createRestClient, createSession, verifySignature } from '@sandbank/client';
const session = createSession({ baseUrl: process.argv[2] });
const rest = createRestClient(session);
const registered = await rest.POST('/v1/auth/register', { body: { email: 'packed@example.com', password: 'password-123' } });
session.setTokens(registered.data.data);
const me = await rest.GET('/v1/auth/me');
const opened = await rest.POST('/v1/accounts', { body: { name: 'Packed' } });
const headers = JSON.parse(process.argv[3]);
const standardHeaders = JSON.parse(process.argv[4]);
console.log(JSON.stringify({
  email: me.data.data.email,
  account: opened.data.data.name,
  verified: verifySignature(headers, ${JSON.stringify(body)}, 'whsec-packed'),
  forged: verifySignature(headers, ${JSON.stringify(body)} + ' ', 'whsec-packed'),
  standard: verifySignature(standardHeaders, ${JSON.stringify(body)}, ${JSON.stringify(standardSecret)}),
}));
`,
  );
  // Not execFileSync: the API answering it runs in this process.
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    ['use.mjs', app.url, JSON.stringify(headers), JSON.stringify(standardHeaders)],
    {
      cwd: project,
      encoding: 'utf8',
    },
  );
  expect(JSON.parse(out)).toEqual({
    email: 'packed@example.com',
    account: 'Packed',
    verified: true,
    forged: false,
    standard: true,
  });

  fs.writeFileSync(
    path.join(project, 'typed.ts'),
    `import { createRestClient, createSession, type components, verifySignature } from '@sandbank/client';
const rest = createRestClient(createSession({ baseUrl: 'http://localhost:3000' }));
export async function balances(): Promise<number[]> {
  const { data } = await rest.GET('/v1/accounts');
  return (data?.data ?? []).map((account: components['schemas']['Account']) => account.balance);
}
export const ok: boolean = verifySignature({}, '', 'secret', { toleranceSeconds: 60 });
// @ts-expect-error: not an endpoint of Sandbank
void rest.GET('/v1/nothing-here');
`,
  );
  fs.writeFileSync(
    path.join(project, 'tsconfig.json'),
    JSON.stringify({
      compilerOptions: {
        target: 'ES2022',
        lib: ['ES2022', 'DOM'],
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        types: [],
      },
      files: ['typed.ts'],
    }),
  );
  const tsc = path.join(path.dirname(createRequire(import.meta.url).resolve('typescript/package.json')), 'bin', 'tsc');
  execFileSync(process.execPath, [tsc, '-p', project], { cwd: project, encoding: 'utf8' });
}, 180_000);
