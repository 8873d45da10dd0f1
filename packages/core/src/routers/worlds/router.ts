import { router } from '../../trpc.ts';
import { createWorldProcedure } from './create-world.ts';
import { deleteSnapshotProcedure } from './delete-snapshot.ts';
import { getSnapshotProcedure } from './get-snapshot.ts';
import { getWorldProcedure } from './get-world.ts';
import { listSnapshotsProcedure } from './list-snapshots.ts';
import { listWorldsProcedure } from './list-worlds.ts';
import { removeWorldProcedure } from './remove-world.ts';
import { restoreSnapshotProcedure } from './restore-snapshot.ts';
import { takeSnapshotProcedure } from './take-snapshot.ts';

export const worldsRouter = router({
  takeSnapshot: takeSnapshotProcedure,
  listSnapshots: listSnapshotsProcedure,
  getSnapshot: getSnapshotProcedure,
  deleteSnapshot: deleteSnapshotProcedure,
  restoreSnapshot: restoreSnapshotProcedure,
  createWorld: createWorldProcedure,
  listWorlds: listWorldsProcedure,
  getWorld: getWorldProcedure,
  removeWorld: removeWorldProcedure,
});
