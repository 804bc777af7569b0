/**
 * Packs a staged folder into a `.mcpb` with mcpb's own packer, after checking the manifest
 * against mcpb's schema so a wrong field is one sentence rather than a dump of schema issues.
 */
import { createHash } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { MANIFEST_SCHEMAS, packExtension } from '@anthropic-ai/mcpb';
import { ReleaseError } from './errors.js';
import { MANIFEST_VERSION, type Manifest } from './manifest.js';

/** Refuses a manifest mcpb would refuse, naming the first field at fault. */
export function checkManifest(manifest: Manifest): void {
  // The schema of the version the manifest claims, not mcpb's newest.
  const schema = MANIFEST_SCHEMAS[MANIFEST_VERSION];
  const result = schema.safeParse(manifest);
  if (!result.success) {
    const [issue] = result.error.issues;
    const where = issue?.path.join('.') || 'the manifest';
    throw new ReleaseError(
      `The bundle manifest is not valid at ${where}: ${issue?.message ?? 'unknown problem'}.`,
    );
  }
}

/** mcpb's packer reports on the console; its lines are kept for an error and otherwise dropped. */
async function quietly<T>(run: () => Promise<T>): Promise<{ value: T; lines: string[] }> {
  const lines: string[] = [];
  const { log, error, warn } = console;
  const keep = (...args: unknown[]) => {
    lines.push(args.map(String).join(' '));
  };
  console.log = keep;
  console.error = keep;
  console.warn = keep;
  try {
    return { value: await run(), lines };
  } finally {
    Object.assign(console, { log, error, warn });
  }
}

/** Writes `manifest` into `stage`, packs `stage` into `outFile`, and returns the file's SHA-256. */
export async function packBundle(stage: string, manifest: Manifest, outFile: string): Promise<string> {
  checkManifest(manifest);
  writeFileSync(join(stage, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  const { value: ok, lines } = await quietly(() =>
    packExtension({ extensionPath: stage, outputPath: outFile, silent: true }),
  );
  if (!ok) {
    const reason = lines.find((line) => /error/i.test(line))?.replace(/^\s*-?\s*(ERROR:\s*)?/, '');
    throw new ReleaseError(`mcpb could not pack the bundle${reason ? `: ${reason}` : '.'}`);
  }
  return createHash('sha256').update(readFileSync(outFile)).digest('hex');
}
