import { describe, expect, it } from 'vitest';
import { companionScript } from '../src/progress/companion.js';

const PKG = 'file:///home/u/src/app/servers/demo';

describe('companionScript', () => {
  it('from src/ (TypeScript under test) points at the build output of the same package', () => {
    expect(companionScript(`${PKG}/src/fs/scanner.ts`, 'fs/worker.js').href).toBe(`${PKG}/dist/fs/worker.js`);
  });

  it('from the compiled module finds the script beside it', () => {
    expect(companionScript(`${PKG}/dist/fs/scanner.js`, 'fs/worker.js').href).toBe(
      `${PKG}/dist/fs/worker.js`,
    );
  });

  it('from the bundled bin in dist/ finds the script in its folder of dist/', () => {
    expect(companionScript(`${PKG}/dist/bin.js`, 'fs/worker.js').href).toBe(`${PKG}/dist/fs/worker.js`);
    expect(companionScript(`${PKG}/dist/bin.js`, 'worker.js').href).toBe(`${PKG}/dist/worker.js`);
  });

  it('keeps an escaped path as it is, and never leaves the package', () => {
    const spaced = 'file:///home/u/my%20src/app';
    expect(companionScript(`${spaced}/src/sql/process.ts`, 'sql/child.js').href).toBe(
      `${spaced}/dist/sql/child.js`,
    );
    for (const here of [`${PKG}/src/a/b.ts`, `${PKG}/dist/a/b.js`, `${PKG}/dist/bin.js`]) {
      expect(companionScript(here, 'a/w.js').href.startsWith(`${PKG}/dist/`)).toBe(true);
    }
  });
});
