import { UserError } from '../errors/index.js';
import type { Launch, LaunchForm, LaunchSpec, StdioLaunch } from './types.js';

/**
 * `npx -y <package> <args>`. `-y` answers npx's install prompt, which a host has no terminal to
 * answer. On Windows npx is a `.cmd` shim that hosts spawning without a shell cannot start
 * (`spawn npx ENOENT`), so the Windows form goes through `cmd /c`.
 */
export function npxLaunch(spec: LaunchSpec, windows = false): StdioLaunch {
  if (windows) spec.args.forEach(refuseCmdHazard);
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

/**
 * Command Prompt reads the line `cmd /c` is given, and then the npx `.cmd` shim's line, before npx
 * does: `& | < > ^ ( )`, `%`, `!` and `"` in an argument would be acted on (or change how the rest
 * is read) there, and no quoting is right for both reads, so such an argument is refused.
 */
function refuseCmdHazard(arg: string): void {
  const found = /[&|<>^%!()"\x00-\x1f\x7f]/.exec(arg)?.[0];
  if (found === undefined) return;
  const control = /[\x00-\x1f\x7f]/.test(found);
  const shown = arg.replace(/[\x00-\x1f\x7f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
  throw new UserError(
    `"${shown}" holds ${control ? 'a control character' : found}, which Command Prompt would act on in the cmd /c npx form; use --absolute, which starts Node directly.`,
  );
}

function withEnv(launch: StdioLaunch, spec: LaunchSpec): StdioLaunch {
  return spec.env && Object.keys(spec.env).length > 0 ? { ...launch, env: { ...spec.env } } : launch;
}
