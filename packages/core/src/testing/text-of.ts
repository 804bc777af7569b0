/**
 * The first text block of a tool result (or a prompt message's content list), or `''`.
 *
 * @example
 * ```ts
 * const session = await connect(app, { era: 'modern' });
 * textOf(await session.callTool('read_note', { name: 'alpha' })); // '# Alpha\nApples.\n'
 * ```
 */
export function textOf(result: { content?: unknown }): string {
  const blocks = (Array.isArray(result.content) ? result.content : []) as { type?: string; text?: unknown }[];
  const text = blocks.find((b) => b.type === 'text')?.text;
  return typeof text === 'string' ? text : '';
}
