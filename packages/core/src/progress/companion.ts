/**
 * Where a script a server starts by path (a worker thread, a child process) is, from wherever the
 * code asking runs:
 * - from `src/` (vitest runs TypeScript, but a worker or child is plain Node, which cannot load
 *   `.ts`): the package's build output, `dist/<script>`;
 * - compiled, beside the asking module in `dist/`;
 * - bundled into `dist/bin.js`: the script stays where `tsc` put it, `dist/<script>`.
 *
 * Never a folder above the package. `here` is the asking module's `import.meta.url`; `script` is
 * the compiled file's path under `dist/`.
 *
 * @example
 * ```ts
 * const worker = companionScript(import.meta.url, 'fs/content-worker.js');
 * ```
 */
export function companionScript(here: string, script: string): URL {
  const module = new URL(here);
  const src = module.pathname.lastIndexOf('/src/');
  if (module.pathname.endsWith('.ts') && src >= 0) {
    return new URL(`${module.pathname.slice(0, src)}/dist/${script}`, module);
  }
  const folder = new URL('.', module);
  const sub = script.lastIndexOf('/');
  // Compiled: the asking module sits in the script's own folder of dist/.
  if (sub >= 0 && folder.pathname.endsWith(`/${script.slice(0, sub)}/`)) {
    return new URL(script.slice(sub + 1), folder);
  }
  return new URL(script, folder);
}
