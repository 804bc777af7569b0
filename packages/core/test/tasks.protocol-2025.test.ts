/**
 * Tasks in the 2025 era: not offered (the 2025 tasks are a different, replaced design), so task
 * tools run synchronously and the tasks methods are unknown.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { connect } from '../src/testing/index.js';
import { closeOpen, makeApp, open, text } from './tasks-protocol-kit.js';

afterEach(closeOpen);

describe('tasks, 2025 era (not offered: the 2025 tasks are a different, replaced design)', () => {
  it('advertises nothing of tasks and lists tools without execution.taskSupport', async () => {
    const s = await connect(makeApp(), { era: 'legacy' });
    open.push(s);
    const caps = s.client.getServerCapabilities() ?? {};
    expect(caps).not.toHaveProperty('tasks');
    expect(caps).not.toHaveProperty('extensions');
    const { tools: listed } = await s.client.listTools();
    expect(listed.find((t) => t.name === 'only_task')?.execution).toBeUndefined();
  });

  it('runs task tools synchronously, even task-only ones', async () => {
    const s = await connect(makeApp(), {
      era: 'legacy',
      elicitation: () => ({ action: 'accept', content: { name: 'Lin' } }),
    });
    open.push(s);
    expect(text(await s.callTool('echo_task', { text: 'old' }))).toBe('echo: old');
    expect(text(await s.callTool('only_task'))).toBe('done as a task or not at all');
    expect(text(await s.callTool('two_questions'))).toBe('Lin and Lin');
    expect(text(await s.callTool('greet_later'))).toBe('Hello, Lin!');
  });

  it('answers the tasks methods with -32601', async () => {
    const s = await connect(makeApp(), { era: 'legacy' });
    open.push(s);
    const request = s.client.request({ method: 'tasks/get', params: { taskId: 'x' } }, z.looseObject({}));
    await expect(request).rejects.toMatchObject({ code: -32601 });
  });
});
