import { registerTool, type Scope } from '@mcpkit/core/server';
import { clientInputTools } from './client-input-tools.js';
import { contentTools } from './content-tools.js';
import { type ListGenerations, registerListChanges } from './list-changes.js';
import { mrtrTools } from './mrtr-tools.js';
import { registerFixturePrompts } from './prompts.js';
import { registerFixtureResources } from './resources.js';
import { runtimeTools } from './runtime-tools.js';
import { registerSchemaTools } from './schema-tools.js';
import { statelessTools } from './stateless-tools.js';
import { taskTools } from './task-tools.js';

/** The fixture surface of one app: registers it on every instance the app builds. */
export interface ConformanceFixtures {
  register(scope: Scope): void;
}

/**
 * The tools, resources and prompts the official conformance suite calls by name (`test_*`,
 * `test://…`), built with core like the notes. Served only with `--conformance-fixtures`: they
 * exist so the suite can score this server, and are no part of the notes server itself.
 */
export function conformanceFixtures(): ConformanceFixtures {
  const generations: ListGenerations = { tools: 0, prompts: 0 };
  return {
    register(scope) {
      for (const tool of [
        ...contentTools,
        ...runtimeTools,
        ...clientInputTools,
        ...mrtrTools,
        ...statelessTools,
        ...taskTools,
      ]) {
        registerTool(scope, tool);
      }
      registerSchemaTools(scope);
      registerListChanges(scope, generations);
      registerFixtureResources(scope);
      registerFixturePrompts(scope);
    },
  };
}
