import { ProtocolError, ProtocolErrorCode } from '@modelcontextprotocol/server';
import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { UserError } from '../src/errors/index.js';
import { createApp, defineTool } from '../src/server/index.js';
import { connect } from '../src/testing/index.js';

const logged: string[] = [];
const log = {
  level: 'debug' as const,
  debug() {},
  info() {},
  warn() {},
  error: (m: string) => void logged.push(m),
};

const fails = defineTool({
  name: 'fails',
  title: 'Fails',
  description: 'Fails the way it is told to.',
  input: z.object({ how: z.enum(['user', 'cursor', 'abort', 'bug']) }),
  annotations: { readOnlyHint: true },
  run({ how }) {
    if (how === 'user') throw new UserError('Say what failed and what to do.');
    if (how === 'cursor')
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, 'Invalid or expired cursor.');
    if (how === 'abort') throw Object.assign(new Error('The operation was aborted'), { name: 'AbortError' });
    throw new Error('secret internal detail at /srv/app/x.ts:12');
  },
});

describe('tool errors', () => {
  it.each(['legacy', 'modern'] as const)('map to one sentence and log only real faults (%s)', async (era) => {
    logged.length = 0;
    const app = createApp({ name: 't', version: '0', tools: [fails] }, { log });
    const s = await connect(app, { era });
    const text = async (how: string) => {
      const r = await s.callTool('fails', { how });
      expect(r.isError).toBe(true);
      return (r.content[0] as { text: string }).text;
    };
    expect(await text('user')).toBe('Say what failed and what to do.');
    expect(await text('cursor')).toBe('Invalid or expired cursor.');
    expect(await text('abort')).toBe('The call was cancelled.');
    expect(logged).toEqual([]);
    const bug = await text('bug');
    expect(bug).toBe('fails failed because of an internal error; the server log has the details.');
    expect(bug).not.toContain('/srv/app');
    expect(logged).toHaveLength(1);
    await s.close();
    await app.close();
  });
});
