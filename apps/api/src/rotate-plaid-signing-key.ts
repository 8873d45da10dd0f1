/**
 * `pnpm --filter @sandbank/api rotate-plaid-key`: the operator's rotation of the Plaid face's webhook
 * signing key (docs/faces/plaid.md). The current key stops signing and expires after
 * WEBHOOK_SECRET_OVERLAP_HOURS (the overlap our own webhook secrets get); a new key with a new `kid`
 * signs from now on. Prints the kids and the old key's expiry, never a key. The running API and
 * workers need no restart: the worker reads the current key for each delivery.
 */
import { createLogger, loadConfig, resolveSecrets } from '@sandbank/config';
import { rotatePlaidSigningKey } from '@sandbank/core';
import { createOrm, migrateDatabase, resolveDatabase } from '@sandbank/db';

const config = loadConfig();
const logger = createLogger(config, 'rotate-plaid-key');
const database = await resolveDatabase(config, (message) => logger.warn({ message }, 'embedded postgres'));
const orm = await createOrm({ url: database.url, poolSize: 2 });
try {
  await migrateDatabase(orm, database.url);
  const overlapSeconds = Math.max(300, config.webhooks.secretOverlapSeconds);
  const rotated = await rotatePlaidSigningKey(orm.em.fork(), resolveSecrets(config), { overlapSeconds });
  logger.info(
    { kid: rotated.kid, previousKid: rotated.previous, previousExpiresAt: rotated.expiresAt?.toISOString() ?? null },
    'Plaid webhook signing key rotated',
  );
} finally {
  await orm.close();
  await database.stop();
}
