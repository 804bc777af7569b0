/**
 * A server's description of itself as a program: its bin, its command line and what a bundle asks
 * its user. `runServer` runs it; the build tool reads the same object (from the server's
 * `dist/cli.js`) to write the `.mcpb` manifest, the registry's `server.json` and the README's
 * install examples, so the command line and what is published about it cannot drift apart.
 */
import type { Logger } from '../logging/logger.js';
import type { App } from '../server/types.js';
import type { ExtraOption, ParsedCommandLine } from './cli.js';

/** The positional arguments, as one slot that may repeat (`<directory>...`). */
export interface Positionals {
  /** A short identifier, e.g. `directory`; registries show it as the value's hint. */
  name: string;
  description: string;
  required: boolean;
  repeated: boolean;
}

/** The kinds of value a host's settings form can ask for (an MCP Bundle's `user_config` types). */
export type BundleSettingType = 'directory' | 'file' | 'string' | 'boolean' | 'number';

export type BundleSettingValue = string | number | boolean | readonly string[];

/**
 * One setting a bundle asks its user for, and the part of the command line it fills.
 *
 * A setting fills either the positional slot (given as arguments after `--`, a multiple setting
 * as one argument per value) or one flag (given as the flag's environment variable, see
 * `envName`: a host substitutes a setting into a variable as text, `true`/`false` for a switch).
 * That split follows what hosts can do: a list of folders can only expand into arguments, and an
 * optional value left empty becomes an empty variable, which the server reads as unset, while an
 * empty argument would be a wrong one.
 */
export interface BundleSetting {
  /** The label of the field, e.g. `Directories`. */
  title: string;
  /** One sentence under the field: what it changes. */
  description: string;
  type: BundleSettingType;
  /** Several values (directory or file pickers only); only for the positional slot. */
  multiple?: boolean;
  /** The host refuses to start the server until it is filled. */
  required?: boolean;
  /** Masked in the form and kept in the system's secret store. */
  sensitive?: boolean;
  /** What the field starts with; a boolean defaults to false, an optional text to empty. */
  default?: BundleSettingValue;
  /** Bounds of a number. */
  min?: number;
  max?: number;
  /** The positional slot, or a flag (common or the server's own) by its name without dashes. */
  fills: 'positionals' | { flag: string };
}

/** A bin: its name, its package.json, its own flags, and how it builds its app. */
export interface ServerBin {
  bin: string;
  packageJson: URL;
  /** The name people see in a host's list of installed servers, e.g. `Filesystem (mcpkit)`. */
  title?: string;
  /** Usage line after the bin name, e.g. `[options] <directory>...`. */
  usage: string;
  options?: Record<string, ExtraOption>;
  /** The positional arguments, for help, server.json and bundles. */
  positionals?: Positionals;
  /** Arguments a README shows in its install examples, e.g. ['/Users/you/projects']. */
  exampleArgs?: readonly string[];
  /** What a bundle asks its user, each filling a positional slot or a flag. */
  settings?: Readonly<Record<string, BundleSetting>>;
  /** Builds the app; throw `UsageError` for a command line that cannot work. */
  create(cli: ParsedCommandLine, log: Logger): Promise<App> | App;
}
