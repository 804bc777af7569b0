/**
 * Which Node runs the bins. The bins run on the user's Node (the first
 * `node` on PATH outside `node_modules/.bin`): under npm scripts a dev dependency's Node 22 comes
 * first, and the project supports and tests Node 20.
 */
import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';

export const USER_NODE = (() => {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '' || /node_modules[\\/]\.bin/.test(dir)) continue;
    const candidate = join(dir, process.platform === 'win32' ? 'node.exe' : 'node');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // Not in this directory.
    }
  }
  return process.execPath;
})();
