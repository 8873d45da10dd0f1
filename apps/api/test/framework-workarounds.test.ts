/**
 * The framework workarounds (packages/core/src/framework-workarounds.ts) are applied by buildApp,
 * not on import, and each one still finds what it replaces: an upgrade of @trpc/server that moves
 * its output step fails here (and at every start-up) instead of silently unchecking responses.
 */
import { applyFrameworkWorkarounds, appRouter } from '@sandbank/core';
import { expect, it } from 'vitest';

type Step = { _type?: string; name: string };
const outputSteps = () =>
  Object.entries(appRouter._def.procedures).map(([path, procedure]) => {
    const def = (procedure as unknown as { _def: { output?: unknown; middlewares: Step[] } })._def;
    return { path, hasOutput: Boolean(def.output), steps: def.middlewares.filter((step) => step._type === 'output') };
  });

it("leaves tRPC's own output step alone on import, and replaces it in every procedure once applied", () => {
  for (const { path, hasOutput, steps } of outputSteps()) {
    expect(steps.length, path).toBe(hasOutput ? 1 : 0);
    for (const step of steps) expect(step.name, path).toBe('outputValidatorMiddleware');
  }
  applyFrameworkWorkarounds();
  applyFrameworkWorkarounds();
  for (const { path, hasOutput, steps } of outputSteps()) {
    expect(steps.length, path).toBe(hasOutput ? 1 : 0);
    for (const step of steps) expect(step.name, path).not.toBe('outputValidatorMiddleware');
  }
});
