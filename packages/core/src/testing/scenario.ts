/**
 * An every-feature scenario: one scripted session against a server's built bin that touches each
 * thing it offers. A server folder exports one as `scenario` from `test/e2e.ts`; the repository's
 * end-to-end layer runs it over stdio and Streamable HTTP, in both eras, against a fresh fixture.
 */
import type { ElicitRequestParams, ElicitResult } from '@modelcontextprotocol/client';
import type { TestSession } from './connect.js';
import type { ScriptedModelOptions, scriptedModel } from './model.js';

/** The fixture a scenario builds: its bin's arguments and what the client offers. */
export interface ScenarioFixture {
  /** The bin's arguments after the common flags. */
  args: string[];
  /** Directories the client offers as roots; omit for none. */
  roots?: string[];
  /** Stops what the fixture started (a local HTTP server); its files are the caller's to remove. */
  close?(): Promise<void>;
}

/** One tool run as a task over 2026 HTTP: its arguments, text its result has, and a slow call to cancel. */
export interface TaskStep {
  tool: string;
  args: Record<string, unknown>;
  expectText: string;
  cancelArgs?: Record<string, unknown>;
}

/** Answers elicitation requests the way the scenario says, and records what was asked. */
export class Elicitor {
  next: 'accept' | 'decline' = 'accept';
  /**
   * What the next accept sends, once; `{ confirm: true }` otherwise. A form with fields of its own
   * (an edited commit message) is filled in here.
   */
  content: Record<string, string | number | boolean | string[]> | undefined;
  readonly asked: string[] = [];

  answer = (params: ElicitRequestParams): ElicitResult => {
    this.asked.push(params.message);
    if (this.next !== 'accept') return { action: 'decline' };
    // Every destructive tool asks a yes/no form whose one field is `confirm`.
    const content = this.content ?? { confirm: true };
    this.content = undefined;
    return { action: 'accept', content };
  };
}

/** What a scenario's steps get. */
export interface ScenarioContext<F extends ScenarioFixture = ScenarioFixture> {
  session: TestSession;
  era: 'legacy' | 'modern';
  transport: 'stdio' | 'http';
  /** The directory the fixture was built in (removed afterwards). */
  dir: string;
  fixture: F;
  model: ReturnType<typeof scriptedModel>;
  elicitor: Elicitor;
  /** The server's process id, for steps that watch its CPU time; undefined where it cannot be told. */
  serverPid(): Promise<number | undefined>;
  /** The MCP endpoint, over HTTP. */
  url?: string;
}

export interface Scenario<F extends ScenarioFixture = ScenarioFixture> {
  /** Builds the fixture in `dir`, an empty directory the caller removes afterwards. */
  setup(dir: string): Promise<F> | F;
  /** The scripted model's behaviour: which tools it calls during sampling. */
  model: ScriptedModelOptions;
  /** The session itself; throws (or fails an assertion) on anything a client would not accept. */
  run(ctx: ScenarioContext<F>): Promise<void>;
  /**
   * A tool that runs as a task for a 2026 client declaring the tasks extension, driven over HTTP by
   * a raw client (the SDK client has no tasks).
   */
  task?(dir: string): TaskStep;
}

/**
 * Declares a server's every-feature scenario with its type checked.
 *
 * @example
 * ```ts
 * export const scenario = defineScenario({
 *   setup: (dir) => ({ args: [dir], roots: [dir] }),
 *   model: { answer: () => 'done' },
 *   run: async (ctx) => void (await ctx.session.callTool('list_notes', {})),
 * });
 * ```
 */
export function defineScenario<F extends ScenarioFixture>(scenario: Scenario<F>): Scenario<F> {
  return scenario;
}
