/**
 * What a server brings to the end-to-end matrix: its bin, the world it serves, what the scripted
 * model does, and one scenario that touches every feature it offers. The matrix runs that scenario
 * over stdio and Streamable HTTP, in both protocol eras.
 */
import type { ReadCall, ScriptedModelOptions, scriptedModel, TestSession } from '@mcpkit/core/testing';
import type { Elicitor } from './session.js';
import type { TaskStep } from './steps.js';

export type Era = 'legacy' | 'modern';
export type TransportKind = 'stdio' | 'http';

export interface Fixture {
  /** The directory the server serves; its path also marks the processes the test started. */
  dir: string;
  /** Everything in the fixture lives under this; it is removed afterwards. */
  base: string;
  /** The bin's arguments after the common flags. */
  args: string[];
  /** Directories the client offers as roots; default: `dir`. */
  roots?: string[];
  /** Read-only calls that must succeed, each with a text its result contains (from a test world). */
  reads?: ReadCall[];
  /** Stops what the fixture started; its files are removed with `base`. */
  close?(): Promise<void>;
}

export interface ScenarioContext {
  session: TestSession;
  era: Era;
  transport: TransportKind;
  fixture: Fixture;
  model: ReturnType<typeof scriptedModel>;
  elicitor: Elicitor;
  /** The server's process id: the HTTP child, or the stdio child found by its command line. */
  serverPid(): Promise<number | undefined>;
  /** The MCP endpoint, over HTTP. */
  url?: string;
}

export interface ServerSpec {
  name: string;
  /** What this run of the server covers, e.g. "its test world" or "every feature". */
  title?: string;
  bin: string;
  /** Builds the world in a fresh temporary directory. */
  fixture(): Promise<Fixture>;
  /** The scripted model's behaviour: which tools it calls during sampling. */
  model: ScriptedModelOptions;
  scenario(ctx: ScenarioContext): Promise<void>;
  /**
   * A tool that runs as a task for a 2026 client declaring the tasks extension, with arguments and
   * a text its result must contain. Driven over HTTP by a raw client: the SDK client has no tasks.
   */
  task?: (fixture: Fixture) => TaskStep;
}
