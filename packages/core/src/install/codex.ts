/** Codex CLI's entry: a TOML table, written by a small writer that covers what an entry holds. */
import type { Launch } from './types.js';

const BARE_KEY = /^[A-Za-z0-9_-]+$/;

/** A TOML key: bare when it can be, else a basic string. */
export function tomlKey(key: string): string {
  return BARE_KEY.test(key) ? key : tomlString(key);
}

/** A TOML basic string: `"` and `\` escaped, control characters as escapes (TOML forbids them raw). */
export function tomlString(value: string): string {
  let out = '"';
  for (const ch of value) {
    const code = ch.codePointAt(0) as number;
    if (ch === '"' || ch === '\\') out += `\\${ch}`;
    else if (ch === '\n') out += '\\n';
    else if (ch === '\t') out += '\\t';
    else if (ch === '\r') out += '\\r';
    else if (code < 0x20 || code === 0x7f) out += `\\u${code.toString(16).padStart(4, '0').toUpperCase()}`;
    else out += ch;
  }
  return `${out}"`;
}

// Codex CLI: https://developers.openai.com/codex/mcp ([mcp_servers.<name>] in ~/.codex/config.toml: command/args/env, or url for Streamable HTTP)
export function codexToml(name: string, launch: Launch): string {
  const table = `mcp_servers.${tomlKey(name)}`;
  if (launch.kind === 'http') return `[${table}]\nurl = ${tomlString(launch.url)}\n`;
  const lines = [
    `[${table}]`,
    `command = ${tomlString(launch.command)}`,
    `args = [${launch.args.map(tomlString).join(', ')}]`,
  ];
  const env = Object.entries(launch.env ?? {});
  if (env.length > 0) {
    lines.push('', `[${table}.env]`, ...env.map(([key, value]) => `${tomlKey(key)} = ${tomlString(value)}`));
  }
  return `${lines.join('\n')}\n`;
}
