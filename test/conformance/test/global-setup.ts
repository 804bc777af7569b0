import { ensureNode22 } from '../src/node22.js';

/** Runs once before the suites: provides Node 22 to every worker through the environment. */
export default async function setup(): Promise<void> {
  process.env.MCPKIT_NODE22 = await ensureNode22();
}
