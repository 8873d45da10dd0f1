import { router } from '../../trpc.ts';
import { applyScenarioProcedure } from './apply-scenario.ts';
import { exportScenarioProcedure } from './export-scenario.ts';
import { getScenarioSchemaProcedure } from './get-scenario-schema.ts';

export const scenariosRouter = router({
  applyScenario: applyScenarioProcedure,
  exportScenario: exportScenarioProcedure,
  getScenarioSchema: getScenarioSchemaProcedure,
});
