/**
 * A server's bundle settings as an MCP Bundle's `user_config`, and where each one goes in the
 * command the host runs. What hosts do with `${user_config.KEY}` (mcpb's own substitution, which
 * hosts follow) decides the mapping:
 * - an argument that is exactly `${user_config.KEY}` expands a list into one argument per value,
 *   but a value left empty stays as the literal text `${user_config.KEY}`;
 * - inside an environment value a list is not substituted at all, while a boolean becomes
 *   `true`/`false` and an empty text becomes empty (which the server reads as unset).
 * So the positional slot takes required settings only (a list is fine there), and each flag gets
 * its variable, with a default so an untouched optional field is still substituted.
 */
import type { FlagDef, ServerDescription, SettingDef } from './description.js';
import { ReleaseError } from './errors.js';

/** `user_config` entry as the bundle spec (0.3 and later) defines it. */
export interface UserConfigEntry {
  type: SettingDef['type'];
  title: string;
  description: string;
  required?: boolean;
  default?: string | number | boolean | string[];
  multiple?: boolean;
  sensitive?: boolean;
  min?: number;
  max?: number;
}

export interface SettingsMapping {
  userConfig: Record<string, UserConfigEntry>;
  /** Arguments after the entry point: `--` and the positional setting, when there is one. */
  args: string[];
  env: Record<string, string>;
}

const KEY = /^[a-z][a-z0-9_]*$/;

/** Every flag the bin accepts, when known: the common ones and the server's own. */
export function knownFlags(desc: ServerDescription): Record<string, FlagDef> | undefined {
  if (!desc.commonOptions) return undefined;
  return { ...desc.commonOptions, ...(desc.cli.options ?? {}) };
}

function checkFlagSetting(desc: ServerDescription, key: string, setting: SettingDef, flag: string): void {
  if (setting.multiple) {
    throw new ReleaseError(
      `Setting ${key} fills --${flag} with several values, which a host cannot put in a variable; make it a comma-separated string.`,
    );
  }
  const def = knownFlags(desc)?.[flag] ?? desc.cli.options?.[flag];
  if (def === undefined && knownFlags(desc) !== undefined) {
    throw new ReleaseError(`Setting ${key} fills --${flag}, which ${desc.cli.bin} does not have.`);
  }
  if (def && (def.type === 'boolean') !== (setting.type === 'boolean')) {
    throw new ReleaseError(`Setting ${key} is a ${setting.type} but --${flag} is a ${def.type} flag.`);
  }
  if (!setting.required && setting.type === 'number' && setting.default === undefined) {
    throw new ReleaseError(`Setting ${key} is an optional number without a default; give it one.`);
  }
}

function checkPositionalSetting(desc: ServerDescription, key: string, setting: SettingDef): void {
  const slot = desc.cli.positionals;
  if (slot === undefined) {
    throw new ReleaseError(`Setting ${key} fills the positional arguments, but the cli declares none.`);
  }
  if (!setting.required) {
    throw new ReleaseError(
      `Setting ${key} fills the positional arguments, so it must be required (a host passes an empty one as literal text).`,
    );
  }
  if (setting.multiple && !slot.repeated) {
    throw new ReleaseError(
      `Setting ${key} takes several values, but the positional ${slot.name} is not repeated.`,
    );
  }
}

function check(desc: ServerDescription, key: string, setting: SettingDef): void {
  if (!KEY.test(key)) {
    throw new ReleaseError(`Setting name ${key} must be lower-case letters, digits and underscores.`);
  }
  if (setting.multiple && setting.type !== 'directory' && setting.type !== 'file') {
    throw new ReleaseError(
      `Setting ${key} is a ${setting.type}; only directory and file settings take several values.`,
    );
  }
  if (setting.fills === 'positionals') checkPositionalSetting(desc, key, setting);
  else checkFlagSetting(desc, key, setting, setting.fills.flag);
}

/** The value an untouched optional field starts with, so the host always has one to substitute. */
function defaultOf(setting: SettingDef): UserConfigEntry['default'] {
  if (setting.default !== undefined) {
    return Array.isArray(setting.default)
      ? [...setting.default]
      : (setting.default as string | number | boolean);
  }
  if (setting.required) return undefined;
  return setting.type === 'boolean' ? false : '';
}

function entry(setting: SettingDef): UserConfigEntry {
  const value = defaultOf(setting);
  return {
    type: setting.type,
    title: setting.title,
    description: setting.description,
    ...(setting.required ? { required: true } : { required: false }),
    ...(value !== undefined ? { default: value } : {}),
    ...(setting.multiple ? { multiple: true } : {}),
    ...(setting.sensitive ? { sensitive: true } : {}),
    ...(setting.min !== undefined ? { min: setting.min } : {}),
    ...(setting.max !== undefined ? { max: setting.max } : {}),
  };
}

/** The `user_config` and the argument and environment templates for the server's settings. */
export function mapSettings(desc: ServerDescription): SettingsMapping {
  const settings = Object.entries(desc.cli.settings ?? {});
  const userConfig: Record<string, UserConfigEntry> = {};
  const positional: string[] = [];
  const env: Record<string, string> = {};
  for (const [key, setting] of settings) {
    check(desc, key, setting);
    userConfig[key] = entry(setting);
    const slot = `\${user_config.${key}}`;
    if (setting.fills === 'positionals') {
      positional.push(slot);
    } else {
      const variable = desc.envName(setting.fills.flag);
      if (env[variable] !== undefined)
        throw new ReleaseError(`Two settings fill --${setting.fills.flag}; keep one.`);
      env[variable] = slot;
    }
  }
  if (positional.length > 1) {
    throw new ReleaseError('Only one setting may fill the positional arguments; the others must fill flags.');
  }
  // After `--` a value that starts with a dash is still a value, never a flag.
  return { userConfig, args: positional.length > 0 ? ['--', ...positional] : [], env };
}
