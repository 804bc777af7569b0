import { fromJsonSchema, type JsonSchemaType } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it } from 'vitest';
import * as z from 'zod';
import { type App, createApp, defineTool } from '../src/server/index.js';
import { connect } from '../src/testing/connect.js';
import { type TaskWire, taskWire, untilTask } from '../src/testing/task-wire.js';

/** A schema zod cannot write: `$anchor`, and a condition (`if`/`then`/`else`). */
const SCHEMA = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: { address: { $anchor: 'addressDef', type: 'object', properties: { city: { type: 'string' } } } },
  properties: {
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
    address: { $ref: '#/$defs/address' },
  },
  required: ['contactMethod'],
  if: { properties: { contactMethod: { const: 'phone' } } },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's conditional keyword, never awaited.
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
} as JsonSchemaType;

type Contact = {
  contactMethod: 'phone' | 'email';
  phone?: string;
  email?: string;
  address?: { city?: string };
};

/** What each tool's `run` was given, in order. */
const seen: unknown[] = [];

const contact = defineTool({
  name: 'contact',
  title: 'Contact',
  description: 'Takes a JSON Schema input.',
  input: fromJsonSchema<Contact>(SCHEMA),
  annotations: { readOnlyHint: true },
  task: 'optional',
  run(args) {
    seen.push(args);
    // Typed from the schema's declared type, not `unknown`.
    const how: 'phone' | 'email' = args.contactMethod;
    return { text: `by ${how}: ${args.phone ?? args.email}` };
  },
});

const zodTool = defineTool({
  name: 'zod_tool',
  title: 'Zod tool',
  description: 'Takes a zod input, made strict by core.',
  input: z.object({ text: z.string() }),
  annotations: { readOnlyHint: true },
  run: ({ text }) => ({ text }),
});

defineTool({
  name: 'not_an_object',
  title: 'Not an object',
  description: 'Tool arguments are an object on the wire.',
  // @ts-expect-error: a schema whose value is not an object cannot be a tool's input.
  input: fromJsonSchema<string>({ type: 'string' }),
  annotations: { readOnlyHint: true },
  run: () => ({ text: '' }),
});

const open: (App | TaskWire)[] = [];
afterEach(async () => {
  for (const o of open.splice(0).reverse()) await o.close();
  seen.length = 0;
});

function makeApp(): App {
  const app = createApp({ name: 'json-schema-input', version: '0', tools: [contact, zodTool] });
  open.push(app);
  return app;
}

const textOf = (result: { content?: Array<{ type: string; text?: string }> }) => result.content?.[0]?.text;

describe('a tool input given as JSON Schema (a non-zod Standard Schema)', () => {
  it.each(['legacy', 'modern'] as const)('is listed verbatim and checked as it is (%s)', async (era) => {
    const s = await connect(makeApp(), { era });
    const { tools } = await s.client.listTools();
    const listed = tools.find((t) => t.name === 'contact')?.inputSchema as Record<string, unknown>;
    expect(listed).toMatchObject({
      $defs: { address: { $anchor: 'addressDef' } },
      if: { properties: { contactMethod: { const: 'phone' } } },
      // biome-ignore lint/suspicious/noThenProperty: the listed schema's conditional keyword.
      then: { required: ['phone'] },
      else: { required: ['email'] },
      additionalProperties: false,
    });

    const ok = await s.callTool('contact', { contactMethod: 'phone', phone: '123' });
    expect(ok.isError).toBeFalsy();
    expect(textOf(ok)).toBe('by phone: 123');
    expect(seen).toEqual([{ contactMethod: 'phone', phone: '123' }]);

    // The condition and additionalProperties hold: the handler never sees such arguments.
    const missing = await s.callTool('contact', { contactMethod: 'phone', email: 'a@b.c' });
    expect(missing.isError).toBe(true);
    const extra = await s.callTool('contact', { contactMethod: 'email', email: 'a@b.c', fax: '1' });
    expect(extra.isError).toBe(true);
    expect(seen).toHaveLength(1);

    // A zod input is still made strict.
    const unknown = await s.callTool('zod_tool', { text: 'hi', txet: 'typo' });
    expect(unknown.isError).toBe(true);
    await s.close();
  });

  it('runs as a task with the arguments it checked, and refuses bad ones as a plain call does', async () => {
    const w = await taskWire(makeApp());
    open.push(w);
    const created = await w.request('tools/call', {
      name: 'contact',
      arguments: { contactMethod: 'email', email: 'a@b.c' },
    });
    expect(created.resultType).toBe('task');
    const done = await untilTask(w, created.taskId, 'completed');
    expect(done.result).toEqual({ content: [{ type: 'text', text: 'by email: a@b.c' }] });
    expect(seen).toEqual([{ contactMethod: 'email', email: 'a@b.c' }]);

    const refused = await w.request('tools/call', { name: 'contact', arguments: { contactMethod: 'email' } });
    expect(refused).toMatchObject({ resultType: 'complete', isError: true });
    expect(refused).not.toHaveProperty('taskId');
    expect(seen).toHaveLength(1);
  });
});
