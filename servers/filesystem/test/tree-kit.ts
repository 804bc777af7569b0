/**
 * The session every tree test (count, delete, move across file systems) runs its calls in: the
 * file-management tools over the test's allowed directory, in one protocol era.
 */
import type { TestSession } from '@mcpkit/core/testing';
import { type asker, type Era, ioApp, open, type World } from './io-kit.js';
import { resetTree, type TreeLayer } from './tree-fs-layer.js';

/** A session and how to end it. */
export interface TreeSession {
  session: TestSession;
  /** Puts `layer` back to a plain pass-through (when given), then closes the session and the app. */
  close: () => Promise<void>;
}

/** A session over `w.allowed` in `era`; `ask` answers the questions the server asks, when given. */
export async function treeSession(
  w: World,
  era: Era,
  layer?: TreeLayer,
  ask?: ReturnType<typeof asker>,
): Promise<TreeSession> {
  const app = await ioApp([w.allowed]);
  const session = await open(app, era, ask);
  const close = async () => {
    if (layer) resetTree(layer);
    await session.close();
    await app.close();
  };
  return { session, close };
}
