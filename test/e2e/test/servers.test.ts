/**
 * Every server in the workspace, end to end: its test world (all of them), then its every-feature
 * scenario (those this layer has one for).
 */
import { describeServer } from '../src/matrix.js';
import { e2eServers } from '../src/servers.js';
import { worldSpec } from '../src/world-spec.js';

for (const { server, world, scenario } of await e2eServers()) {
  describeServer(worldSpec(server, world));
  if (scenario) describeServer(scenario(server));
}
