/**
 * Every server in the workspace, end to end: on its test world (all of them), then on its
 * every-feature scenario (those whose folder has a `test/e2e.ts`).
 */
import { describeServer } from '../src/matrix.js';
import { e2eServers } from '../src/servers.js';
import { worldScenario } from '../src/world-scenario.js';

for (const { server, world, scenario } of await e2eServers()) {
  const { name, bin } = server;
  describeServer({ name, bin, title: 'its test world', scenario: worldScenario(world) });
  if (scenario) describeServer({ name, bin, title: 'every feature', scenario });
}
