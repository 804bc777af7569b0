/**
 * What the test kit reads about processes from /proc: the threads of a process, which of them are
 * busy, and the bytes it read: what cancellation and "read only what it needs" tests assert
 * instead of times. Linux only: elsewhere the kit answers undefined, which the last test checks.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { bytesReadBy, threadCpuTimes, untilThreadsEnd } from '../src/testing/processes.js';
import { busyThreads, untilThreadsStop } from '../src/testing/work-threads.js';

const hasProc = (await threadCpuTimes(process.pid)) !== undefined;

describe.runIf(hasProc)('process facts from /proc', () => {
  it('lists the threads of a process, its main thread under its own id', async () => {
    const threads = await threadCpuTimes(process.pid);
    expect(threads?.has(process.pid)).toBe(true);
    for (const cpu of threads?.values() ?? []) expect(cpu).toBeGreaterThanOrEqual(0);
  });

  it('finds the thread of a spinning worker, and sees it stop once the worker is terminated', async () => {
    const worker = new Worker('for (;;) {}', { eval: true });
    try {
      const spinning = await busyThreads(process.pid);
      expect(spinning.size).toBeGreaterThan(0);
      expect(spinning.has(process.pid)).toBe(false);
      await worker.terminate();
      await untilThreadsStop(process.pid, spinning);
      const after = await threadCpuTimes(process.pid);
      expect([...spinning].filter((tid) => after?.has(tid))).toEqual([]);
    } finally {
      await worker.terminate();
    }
  });

  it("sees a worker's thread come, and waits until it is gone after terminate()", async () => {
    const before = new Set((await threadCpuTimes(process.pid))?.keys());
    const worker = new Worker('setInterval(() => {}, 1000);', { eval: true });
    await new Promise((resolve) => worker.once('online', resolve));
    const added = [...((await threadCpuTimes(process.pid))?.keys() ?? [])].filter((t) => !before.has(t));
    expect(added.length).toBeGreaterThan(0);
    await worker.terminate();
    await untilThreadsEnd(process.pid, added);
    const after = await threadCpuTimes(process.pid);
    expect(added.filter((t) => after?.has(t))).toEqual([]);
  });

  it('gives up looking for busy threads when the check says the work has ended', async () => {
    const ended = () => {
      throw new Error('the work ended');
    };
    await expect(busyThreads(process.pid, ended)).rejects.toThrow('the work ended');
  });

  it('counts the bytes a process reads', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'mcpkit-processes-'));
    try {
      const file = join(dir, 'one-mib');
      await writeFile(file, Buffer.alloc(1024 * 1024, 1));
      const before = await bytesReadBy(process.pid);
      await readFile(file);
      const after = await bytesReadBy(process.pid);
      expect((after ?? 0) - (before ?? 0)).toBeGreaterThanOrEqual(1024 * 1024);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('a process that is not there', () => {
  it('has no threads and no count, and nothing to wait for', async () => {
    // Above the kernel's largest process id, so no process can have it.
    const none = 2 ** 22 + 1;
    expect(await threadCpuTimes(none)).toBeUndefined();
    expect(await bytesReadBy(none)).toBeUndefined();
    expect(await busyThreads(none)).toEqual(new Set());
    await untilThreadsStop(none, new Set([none]));
    await untilThreadsEnd(none, [none]);
  });
});
