/**
 * What each bundle carries. The bin compiles everything it bundles at every start, so the DOM
 * libraries (linkedom and its parser, Readability, Turndown and its own DOM) belong to the
 * conversion worker's bundle only: a main-thread import that reaches them (say, a value imported
 * from page-content.ts or links.ts instead of a type) doubles the bin and adds tens of
 * milliseconds to every cold start. The worker's bundle must carry them, since the tarball ships
 * it beside the bin with nothing installed around it.
 *
 * Bundled exactly as the package's build does it (@mcpkit/bundle), into a scratch folder.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type BundleResult, bundleBin } from '@mcpkit/bundle';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));

/** The DOM side of the conversion: linkedom with its parser, Readability, Turndown with domino. */
const DOM_PACKAGES = ['linkedom', 'htmlparser2', '@mozilla/readability', 'turndown', '@mixmark-io/domino'];

describe('the bundles', () => {
  let scratch: string;
  let bin: BundleResult;
  let worker: BundleResult;

  beforeAll(async () => {
    scratch = mkdtempSync(join(tmpdir(), 'fetch-bundles-'));
    bin = await bundleBin({ entry: 'src/bin.ts', outfile: join(scratch, 'bin.js'), cwd: PACKAGE });
    worker = await bundleBin({
      entry: 'src/html/convert-worker.ts',
      outfile: join(scratch, 'html', 'convert-worker.js'),
      cwd: PACKAGE,
    });
  }, 60_000);

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  const names = (result: BundleResult) => result.packages.map((pkg) => pkg.name);

  it('leave the DOM libraries out of the bin', () => {
    expect(names(bin).filter((name) => DOM_PACKAGES.includes(name))).toEqual([]);
    // What the server's thread does need is there: the HTTP client and the address checks.
    expect(names(bin)).toEqual(expect.arrayContaining(['undici', 'ipaddr.js']));
  });

  it('put the DOM libraries in the conversion worker', () => {
    expect(names(worker)).toEqual(expect.arrayContaining(DOM_PACKAGES));
    expect(names(worker)).not.toContain('undici');
  });
});
