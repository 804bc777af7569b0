import type { Launch, LaunchForm, LaunchSpec, StdioLaunch } from './types.js';

/**
 * `npx -y <package> <args>`. `-y` answers npx's install prompt, which a host has no terminal to
 * answer. On Windows npx is a `.cmd` shim that hosts spawning without a shell cannot start
 * (`spawn npx ENOENT`), so the Windows form goes through `cmd /c`.
 */
export function npxLaunch(spec: LaunchSpec, windows = false): StdioLaunch {
  const npx = ['npx', '-y', spec.packageName, ...spec.args];
  const [command, ...args] = windows ? ['cmd', '/c', ...npx] : npx;
  return withEnv({ kind: 'stdio', command: command as string, args }, spec);
}

/** The given Node running the installed bin script: the same on every platform. */
export function absoluteLaunch(spec: LaunchSpec, node: string, script: string): StdioLaunch {
  return withEnv({ kind: 'stdio', command: node, args: [script, ...spec.args] }, spec);
}

/** The launch a form stands for. */
export function launchOf(spec: LaunchSpec, form: LaunchForm, windows = false): Launch {
  if (form.kind === 'http') return { kind: 'http', url: form.url };
  if (form.kind === 'absolute') return absoluteLaunch(spec, form.node, form.script);
  return npxLaunch(spec, windows);
}

function withEnv(launch: StdioLaunch, spec: LaunchSpec): StdioLaunch {
  return spec.env && Object.keys(spec.env).length > 0 ? { ...launch, env: { ...spec.env } } : launch;
}
