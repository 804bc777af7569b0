/**
 * The world the file-management tests (io-manage-*.test.ts) run in: before each test a fresh tree
 * (a.txt, b.txt, dir/one.txt, dir/sub/two.txt) with an app over it, and a session that can ask the
 * user or not.
 */
import { lstat, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { App } from '@mcpkit/core/server';
import { afterEach, beforeEach } from 'vitest';
import { world } from './harness.js';
import { asker, type Era, ioApp, open, type TestSession, type World } from './io-kit.js';

export const exists = (p: string) =>
  lstat(p).then(
    () => true,
    () => false,
  );

/** What the user answers when the server asks. */
export type Answer = 'accept' | 'decline';

/** One test's world, app and session, made fresh before each test and closed after it. */
export class Managing {
  w!: World;
  app!: App;
  session: TestSession | undefined;
  /** What the asking client answers; `accept` at the start of each test. */
  answer: Answer = 'accept';
  /** The asking client's responder, and the questions it saw in this test. */
  ask = asker(() => this.answer);

  constructor(readonly era: Era) {}

  /** A tree of a.txt, b.txt, dir/one.txt and dir/sub/two.txt, and an app over it. */
  async setUp(): Promise<void> {
    this.w = await world();
    await writeFile(join(this.w.allowed, 'a.txt'), 'alpha\n');
    await writeFile(join(this.w.allowed, 'b.txt'), 'beta\n');
    await mkdir(join(this.w.allowed, 'dir', 'sub'), { recursive: true });
    await writeFile(join(this.w.allowed, 'dir', 'one.txt'), '1');
    await writeFile(join(this.w.allowed, 'dir', 'sub', 'two.txt'), '2');
    this.app = await ioApp([this.w.allowed]);
    this.answer = 'accept';
    this.ask = asker(() => this.answer);
  }

  async tearDown(): Promise<void> {
    await this.session?.close();
    this.session = undefined;
    await this.app.close();
    await this.w.cleanup();
  }

  /** Connects a client that asks the user, who answers with `answer`. */
  async asking(): Promise<TestSession> {
    this.session = await open(this.app, this.era, this.ask);
    return this.session;
  }

  /** Connects a client that cannot ask the user. */
  async blind(): Promise<TestSession> {
    this.session = await open(this.app, this.era);
    return this.session;
  }
}

/** A fresh `Managing` for every test of the calling describe block. */
export function managing(era: Era): Managing {
  const m = new Managing(era);
  beforeEach(() => m.setUp());
  afterEach(() => m.tearDown());
  return m;
}
