// Sums the vitest JSON reports every workspace wrote (or turbo restored from cache)
// and prints one closing line per layer plus the total, so CI and people read one number.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const rootPkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const dirs = rootPkg.workspaces.flatMap((pattern) => {
  const base = pattern.replace(/\/\*$/, '');
  if (!existsSync(join(root, base))) return [];
  return readdirSync(join(root, base)).map((name) => join(base, name));
});

let passed = 0;
let failed = 0;
let skipped = 0;
for (const dir of dirs.sort()) {
  const report = join(root, dir, '.reports', 'vitest.json');
  if (!existsSync(report)) continue;
  const r = JSON.parse(readFileSync(report, 'utf8'));
  const p = r.numPassedTests ?? 0;
  const f = r.numFailedTests ?? 0;
  const s = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
  passed += p;
  failed += f;
  skipped += s;
  console.log(
    `  ${dir.padEnd(28)} ${String(p).padStart(5)} passed ${String(f).padStart(3)} failed ${String(s).padStart(3)} skipped`,
  );
}
console.log(`${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 ? 1 : 0);
