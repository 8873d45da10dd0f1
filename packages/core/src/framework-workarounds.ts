/**
 * Every place Sandbank reaches into a framework's internals, applied once by `buildApp` (nothing
 * happens on import). Each one throws when the framework no longer looks the way it expects, so an
 * upgrade that breaks one fails at start-up and in every test, not quietly in production
 * (apps/api/test/framework-workarounds.test.ts). The other one is a file: patches/@trpc__server@*.patch
 * (docs/stack-notes.md says why).
 * - tRPC's output step is replaced by one that follows CHECK_RESPONSES (response-check.ts).
 */
import { useConfiguredResponseChecks } from './response-check.ts';
import { appRouter } from './router.ts';

let applied = false;

export function applyFrameworkWorkarounds(): void {
  if (applied) return;
  useConfiguredResponseChecks(appRouter._def.procedures);
  applied = true;
}
