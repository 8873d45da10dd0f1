/**
 * Vitest global setup: start (or reuse) the test PostgreSQL, create a template database with
 * every migration applied, and hand its URL to the test files.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig } from '@sandbank/config';
import { createOrm, migrateDatabase, startEmbeddedPostgres } from '@sandbank/db';
import type { TestProject } from 'vitest/node';
import { withClient, withDatabase } from './index.ts';
import { chooseTestServerPort, markTestServer } from './test-server.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

export default async function setup(project: TestProject) {
  let stopServer = async () => {};
  let serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) {
    const dataDir = path.join(repoRoot, '.data/test');
    // Other runs may find this server and use it (see the teardown): it must not go down with this process.
    const port = await chooseTestServerPort(dataDir);
    const embedded = await startEmbeddedPostgres({ dataDir, port, database: 'postgres', outliveParent: true });
    await markTestServer(embedded.url);
    serverUrl = embedded.url;
    stopServer = embedded.stop;
  }
  const template = `sandbank_template_${randomBytes(4).toString('hex')}`;
  const adminUrl = withDatabase(serverUrl, 'postgres');
  await withClient(adminUrl, (client) => client.query(`create database "${template}"`));
  const templateUrl = withDatabase(serverUrl, template);
  const orm = await createOrm({ url: templateUrl, poolSize: 2 });
  await migrateDatabase(orm, templateUrl);
  await orm.close();
  if (process.env.TEST_ALIGN_DB_CLOCK === '1') await alignWallClock(templateUrl);
  // Loading config here fails the run early if the test environment is misconfigured.
  loadConfig({ NODE_ENV: 'test' });
  project.provide('sandbankTemplateUrl', templateUrl);

  return async () => {
    await withClient(adminUrl, async (client) => {
      const { rows } = await client.query<{ datname: string }>(
        `select datname from pg_database where datname like $1 or datname = $2`,
        [`${template.replace('_template_', '_test_')}_%`, template],
      );
      for (const row of rows) await client.query(`drop database if exists "${row.datname}" with (force)`);
    });
    // Another run (a second worktree, a watch) may have found this server running and be using it:
    // its template says so. Stopping under it would fail its tests with ECONNREFUSED; leave it up.
    const othersRunning = await withClient(adminUrl, async (client) => {
      const { rows } = await client.query(`select 1 from pg_database where starts_with(datname, 'sandbank_template_') limit 1`);
      return rows.length > 0;
    });
    if (!othersRunning) await stopServer();
  };
}

/**
 * `pnpm test:instants` runs the tests with this process's clock shifted (libfaketime) and the
 * database's not (PostgreSQL's timers break under it): the worlds' wall time, `sandbank_wall_now()`,
 * is shifted in the template by the difference, so the worlds and the tests read one time.
 */
async function alignWallClock(templateUrl: string) {
  await withClient(templateUrl, async (client) => {
    const { rows } = await client.query<{ ms: string }>(
      `select (extract(epoch from clock_timestamp()) * 1000)::bigint::text as ms`,
    );
    const shiftMs = Date.now() - Number(rows[0]?.ms);
    await client.query(`create or replace function sandbank_wall_now() returns timestamptz language sql stable parallel safe
      as 'select statement_timestamp() + ${Math.round(shiftMs)} * interval ''1 millisecond'''`);
  });
}
