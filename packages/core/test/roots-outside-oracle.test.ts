import { mkdir, mkdtemp, realpath, rm, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RootSet } from '../src/roots/root-set.js';

/**
 * A link inside a root that points out must not become a probe of what exists outside: whatever
 * lies behind it (a file, a directory, nothing, a loop), the refusal reads the same.
 */
describe('RootSet.resolve through a link that leads out', () => {
  let tmp: string;
  let allowed: string;
  let roots: RootSet;
  beforeAll(async () => {
    tmp = await realpath(await mkdtemp(path.join(os.tmpdir(), 'mcpkit-oracle-')));
    allowed = path.join(tmp, 'allowed');
    const outside = path.join(tmp, 'outside');
    await mkdir(allowed);
    await mkdir(path.join(outside, 'dir'), { recursive: true });
    await writeFile(path.join(outside, 'secret.txt'), 'secret');
    await symlink(path.join(outside, 'loop'), path.join(outside, 'loop'));
    await symlink(outside, path.join(allowed, 'd'));
    await writeFile(path.join(allowed, 'file.txt'), 'x');
    await symlink(path.join(allowed, 'me'), path.join(allowed, 'me'));
    roots = await RootSet.create([allowed]);
  });
  afterAll(() => rm(tmp, { recursive: true, force: true }));

  const refusal = async (input: string, mode: 'read' | 'write' = 'read'): Promise<string> => {
    const error = await roots.resolve(input, { mode }).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error, input).toBeInstanceOf(Error);
    return error!.message.replace(`"${input}"`, '"X"');
  };

  it('says the same for a file, a directory, nothing and a loop behind the link', async () => {
    const probes = ['d/secret.txt/x', 'd/dir/x', 'd/nothing/x', 'd/loop/x', 'd/secret.txt/a/b'];
    const texts = new Set<string>();
    for (const input of probes) {
      texts.add(await refusal(input));
      texts.add(await refusal(input, 'write'));
    }
    expect([...texts]).toHaveLength(1);
    expect([...texts][0]).toContain('symbolic link that points outside');
  });

  it('still explains failures inside the roots precisely', async () => {
    expect(await refusal('file.txt/x')).toContain('a part of the path is a file');
    expect(await refusal('me/x')).toContain('too many levels of symbolic links');
  });
});
