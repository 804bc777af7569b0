import { completer } from '@mcpkit/core/completion';
import { NotFound, readResource, type Scope } from '@mcpkit/core/server';
import { ResourceTemplate } from '@modelcontextprotocol/server';
import { RED_PIXEL_PNG } from './media.js';

const TEMPLATE = 'test://template/{id}/data';

/**
 * The suite's `test://` resources: a text and a binary one, a template that echoes its variable,
 * and one to subscribe to. Reads go through core's `readResource`, like the notes.
 */
export function registerFixtureResources(scope: Scope): void {
  const { mcp } = scope;
  mcp.registerResource(
    'static-text',
    'test://static-text',
    { title: 'Static text', description: 'A fixed text resource.', mimeType: 'text/plain' },
    (uri, ctx) =>
      readResource(scope, uri, ctx, () => ({
        contents: [
          { uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
        ],
      })),
  );
  mcp.registerResource(
    'static-binary',
    'test://static-binary',
    { title: 'Static binary', description: 'A fixed 1x1 PNG image.', mimeType: 'image/png' },
    (uri, ctx) =>
      readResource(scope, uri, ctx, () => ({
        contents: [{ uri: uri.href, mimeType: 'image/png', blob: RED_PIXEL_PNG }],
      })),
  );
  mcp.registerResource(
    'watched-resource',
    'test://watched-resource',
    { title: 'Watched', description: 'A resource clients may subscribe to.', mimeType: 'text/plain' },
    (uri, ctx) =>
      readResource(scope, uri, ctx, () => ({
        contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Subscribe to hear when this changes.' }],
      })),
  );
  mcp.registerResource(
    'template-data',
    new ResourceTemplate(TEMPLATE, {
      list: undefined,
      complete: { id: completer(() => ['123', '456', '789']) },
    }),
    { title: 'Template data', description: 'JSON data for any id.', mimeType: 'application/json' },
    (uri, vars, ctx) =>
      readResource(scope, uri, ctx, () => {
        const raw = vars.id;
        const id = typeof raw === 'string' ? decodeURIComponent(raw) : undefined;
        if (!id) throw new NotFound();
        return {
          contents: [
            {
              uri: uri.href,
              mimeType: 'application/json',
              text: JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` }),
            },
          ],
        };
      }),
  );
}
