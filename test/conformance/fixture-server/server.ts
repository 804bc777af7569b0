import { type App, type AppOptions, createApp, readPackageInfo } from '@mcpkit/core/server';
import { clientInputTools } from './client-input-tools.js';
import { contentTools } from './content-tools.js';
import type { FixtureContext, Generations } from './context.js';
import { dynamicFixtures, listChangeTriggers } from './list-changes.js';
import { mrtrTools } from './mrtr-tools.js';
import { fixturePrompts } from './prompts.js';
import { fixtureResources } from './resources.js';
import { runtimeTools } from './runtime-tools.js';
import { schemaTools } from './schema-tools.js';
import { statelessTools } from './stateless-tools.js';
import { taskTools } from './task-tools.js';

/** This package's package.json (`fixture-server/` and the built `dist/` both sit one level down). */
export const PACKAGE_JSON = new URL('../package.json', import.meta.url);

/** The name clients see in `serverInfo`, and the bin's name. */
export const NAME = 'mcpkit-conformance-fixtures';

/**
 * The official conformance suite's fixture surface, and nothing else: the tools, resources,
 * templates and prompts it calls by name (`test_*`, `test://…`), its list-change hooks, task tools
 * and schema tools, built with core like a real server. It exists so the suite can score core in
 * full; the real servers are scored beside it, with the fixture-bound scenarios as expected failures.
 *
 * @example
 * ```ts
 * const app = createFixtureApp();
 * serveAppStdio(app);
 * ```
 */
export function createFixtureApp(options: AppOptions = {}): App<FixtureContext> {
  // One app's generations: the context hands them to every handler; the dynamic tool and prompt,
  // made for this app, read them into their descriptions.
  const generations: Generations = { tools: 0, prompts: 0 };
  const dynamic = dynamicFixtures(generations);
  return createApp<FixtureContext>(
    {
      name: NAME,
      version: readPackageInfo(PACKAGE_JSON).version,
      title: 'mcpkit conformance fixtures',
      description: "The MCP conformance suite's test_* fixtures, served with @mcpkit/core.",
      tools: [
        ...contentTools,
        ...runtimeTools,
        ...clientInputTools,
        ...mrtrTools,
        ...statelessTools,
        ...taskTools,
        ...schemaTools,
        ...listChangeTriggers,
        dynamic.tool,
      ],
      resources: fixtureResources,
      prompts: [...fixturePrompts, dynamic.prompt],
      context: { create: () => ({ generations }) },
    },
    options,
  );
}
