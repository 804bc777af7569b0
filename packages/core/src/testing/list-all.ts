import type { Client } from '@modelcontextprotocol/client';

type ListMethod = 'tools/list' | 'prompts/list' | 'resources/list' | 'resources/templates/list';
const KEY = {
  'tools/list': 'tools',
  'prompts/list': 'prompts',
  'resources/list': 'resources',
  'resources/templates/list': 'resourceTemplates',
} as const;

/**
 * Walks a list method page by page with raw requests (the client's own list helpers hide the
 * pages), so a test can see both the items and how many pages they came in.
 *
 * @example
 * ```ts
 * const session = await connect(app, { era: 'modern' });
 * const { items, pages } = await listAll(session.client, 'tools/list');
 * ```
 */
export async function listAll(client: Client, method: ListMethod, maxPages = 1000) {
  const items: Record<string, unknown>[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = (await client.request({ method, params: cursor ? { cursor } : {} })) as Record<
      string,
      unknown
    > & {
      nextCursor?: string;
    };
    items.push(...((page[KEY[method]] as Record<string, unknown>[] | undefined) ?? []));
    cursor = page.nextCursor;
    pages++;
  } while (cursor && pages < maxPages);
  return { items, pages };
}
