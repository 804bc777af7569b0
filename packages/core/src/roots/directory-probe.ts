/**
 * The realpath of a configured or client directory, under a stall guard's deadline when it is on a
 * network or FUSE mount: a mount that is stalled when the server starts, or when a client shares a
 * root on it, is then given up after the deadline instead of hanging the start or a session.
 */
import { realpath, stat } from 'node:fs/promises';
import { isWithin, pathFor } from './containment.js';
import type { StallGuard, StallScope } from './stall-guard.js';

/**
 * What a probe found: the real path, or why there is none. `missing` also covers a path that
 * cannot be accessed or is not absolute; `stalled`: given up now, left to finish in the
 * background; `unanswered`: at or below a path given up before that has not answered since, or
 * the same path being asked already (asking again would only hold one more thread).
 */
export type DirectoryProbe = { real: string } | { not: 'missing' | 'file' | 'stalled' | 'unanswered' };

const PLATFORM = process.platform;

/** Probes given up and not returned: each holds a thread-pool thread until the mount answers. */
const unanswered = new Set<string>();
/** Probes under a guard now running, by path. */
const asking = new Map<string, Promise<DirectoryProbe>>();

/** The real path of the absolute directory `path` (`RootSet.probe` for callers outside core). */
export async function probeDirectory(path: string, guard: StallGuard | undefined): Promise<DirectoryProbe> {
  if (!pathFor(PLATFORM).isAbsolute(path) || /[\u0000-\u001f]/.test(path)) return { not: 'missing' };
  if (!guard) return realDirectory(path).catch(() => ({ not: 'missing' }));
  for (const dir of unanswered) if (isWithin(dir, path, PLATFORM)) return { not: 'unanswered' };
  // Asked again while the first is out (two roots answers racing): one thread, and one warning.
  const asked = asking.get(path);
  if (asked)
    return asked.then((found) => ('not' in found && found.not === 'stalled' ? { not: 'unanswered' } : found));
  const answer = probeUnder(guard, path);
  asking.set(path, answer);
  return answer.finally(() => asking.delete(path));
}

async function realDirectory(path: string): Promise<DirectoryProbe> {
  const real = await realpath(path);
  return (await stat(real)).isDirectory() ? { real } : { not: 'file' };
}

/** {@link realDirectory} under `guard`: given up at its deadline on a slow file system. */
async function probeUnder(guard: StallGuard, path: string): Promise<DirectoryProbe> {
  let scope: StallScope | undefined;
  let started: Promise<DirectoryProbe> | undefined;
  try {
    return await guard.run(undefined, async (entered) => {
      scope = entered;
      await entered.enter(path, path);
      started = realDirectory(path);
      return started;
    });
  } catch {
    // Without a signal of its own, the scope is aborted only when the guard gives the call up.
    if (!scope?.signal.aborted) return { not: 'missing' };
    if (started) {
      unanswered.add(path);
      const answered = () => unanswered.delete(path);
      started.then(answered, answered);
    }
    return { not: 'stalled' };
  }
}
