/** Snapshots and child worlds, from the rows of domain/worlds, in the SPEC's shapes. */
import type { Snapshot, World } from '@sandbank/schemas';
import type { SnapshotRow } from '../domain/worlds/queries/snapshot-rows.ts';
import type { WorldRow } from '../domain/worlds/worlds.ts';
import { isoTimestamp } from '../lib/timestamps.ts';

export const toSnapshot = (row: SnapshotRow): Snapshot => ({
  id: row.id,
  name: row.name,
  takenAt: isoTimestamp(row.taken_at),
  clockOffsetMs: Number(row.clock_offset_ms),
  accounts: Number(row.accounts),
  transactions: Number(row.transactions),
  schedules: Number(row.schedules),
  webhooks: Number(row.webhooks),
  apiKeys: Number(row.api_keys),
  include: row.include,
});

export const toWorld = (row: WorldRow): World => ({
  id: row.id,
  email: row.email,
  parentId: row.parent_id,
  source: row.source,
  snapshotId: row.snapshot_id,
  createdAt: isoTimestamp(row.created_at),
  expiresAt: isoTimestamp(row.expires_at),
});
