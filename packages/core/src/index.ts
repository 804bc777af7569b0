/**
 * @mcpkit/core — everything the mcpkit servers share. Each module is also its own entry point
 * (`@mcpkit/core/roots`, `@mcpkit/core/server`, …); `@mcpkit/core/testing` is only reachable by
 * its own path, so production code never loads the test client.
 */
export * from './completion/index.js';
export * from './elicitation/index.js';
export * from './errors/index.js';
export * from './limits/index.js';
export * from './logging/index.js';
export * from './mrtr/index.js';
export * from './pagination/index.js';
export * from './progress/index.js';
export * from './roots/index.js';
export * from './runner/index.js';
export * from './sampling/index.js';
export * from './server/index.js';
export * from './subscriptions/index.js';
export * from './tasks/index.js';
