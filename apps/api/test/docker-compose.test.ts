/**
 * The Compose files (docs/operations/docker.md, docs/operations/high-availability.md), checked by
 * Compose itself: `docker compose config` (or Debian's `docker-compose config`, installed by
 * scripts/ensure-docker-compose.sh; no Docker engine needed). Each file is valid with its secrets
 * given, refuses to start without them, and describes the topology the docs promise.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../../', import.meta.url));
const SECRETS = {
  JWT_SECRET: 'a-compose-check-secret-of-at-least-32-characters',
  WEBHOOK_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  PG_SUPERUSER_PASSWORD: 'compose-superuser',
  PG_REPLICATION_PASSWORD: 'compose-replication',
};

let compose: string[];
beforeAll(() => {
  compose = execFileSync('bash', [`${root}scripts/ensure-docker-compose.sh`], { encoding: 'utf8' })
    .trim()
    .split(' ');
}, 180_000);

/** `<compose> -f <file> config <args>` with `env` (and nothing of this process's Compose variables). */
function config(file: string, args: string[], env: Record<string, string>) {
  const [command = 'docker-compose', ...prefix] = compose;
  const result = spawnSync(command, [...prefix, '-f', `${root}docker/${file}`, 'config', ...args], {
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe.each([
  { file: 'compose.yaml', services: ['api', 'postgres', 'worker'], missing: 'JWT_SECRET' },
  {
    file: 'compose.cluster.yaml',
    services: ['api', 'etcd1', 'etcd2', 'etcd3', 'haproxy', 'pg1', 'pg2', 'pg3', 'worker'],
    missing: 'PG_SUPERUSER_PASSWORD',
  },
])('docker/$file', ({ file, services, missing }) => {
  it('is valid Compose with its secrets, and names its services', () => {
    expect(config(file, ['-q'], SECRETS)).toMatchObject({ status: 0, stderr: '' });
    const listed = config(file, ['--services'], SECRETS);
    expect(listed.stdout.trim().split('\n').sort()).toEqual(services);
  });

  it('refuses to run without a secret, naming it', () => {
    const { [missing as keyof typeof SECRETS]: _left, ...rest } = SECRETS;
    const refused = config(file, ['-q'], rest);
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toContain(missing);
  });
});

it('sends the cluster API’s writes to HAProxy’s primary port and its reads to the replicas’ port', () => {
  const { stdout } = config('compose.cluster.yaml', [], SECRETS);
  const api = stdout.slice(stdout.indexOf('\n  api:'), stdout.indexOf('\n  etcd1:'));
  expect(api).toContain(`DATABASE_URL: postgres://postgres:${SECRETS.PG_SUPERUSER_PASSWORD}@haproxy:5000/sandbank`);
  expect(api).toContain(`DATABASE_READ_URL: postgres://postgres:${SECRETS.PG_SUPERUSER_PASSWORD}@haproxy:5001/sandbank`);
  const worker = stdout.slice(stdout.indexOf('\n  worker:'));
  expect(worker).toContain('@haproxy:5000/sandbank');
  expect(worker).not.toContain('DATABASE_READ_URL');
});
