/**
 * What the TaskStore tests (tasks.store-*.test.ts) share: results of a chosen size and what keeping
 * one costs, a question to ask, and stores on a clock the test moves by hand.
 */
import { inputRequired } from '@modelcontextprotocol/server';
import type { TaskStoreOptions } from '../src/tasks/index.js';
import { TASK_OVERHEAD_BYTES } from '../src/tasks/outcome.js';
import { TaskStore } from '../src/tasks/store.js';

export const RESULT = { content: [{ type: 'text' as const, text: 'done' }] };
export const KiB = 1024;
/** A result whose serialised form is close to `chars` characters long. */
export const sized = (chars: number, mark = 'x') => ({
  content: [{ type: 'text' as const, text: mark.repeat(chars) }],
});
/** What the store charges for keeping `result` (two bytes per character, plus the fixed charge). */
export const charge = (result: object) => JSON.stringify(result).length * 2 + TASK_OVERHEAD_BYTES;
export const ASK = inputRequired.elicit({
  message: 'Name?',
  requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
});

/** The store's clock: each new store starts it at 1 000 000 ms, and tests move it on by hand. */
export const clock = { now: 0 };
const stores: TaskStore[] = [];
/** A store on `clock`, closed by `closeStores`. */
export function store(options: TaskStoreOptions = {}): TaskStore {
  clock.now = 1_000_000;
  const s = new TaskStore({ now: () => clock.now, ...options });
  stores.push(s);
  return s;
}

/** Closes every store a test made (after each test). */
export function closeStores(): void {
  for (const s of stores.splice(0)) s.close();
}
