import { NotFound } from '@mcpkit/core/errors';
import { defineResource, defineResourceTemplate } from './context.js';
import { RED_PIXEL_PNG } from './media.js';

/**
 * The suite's `test://` resources: a text and a binary one, one to subscribe to, and a template
 * that echoes its variable. Core runs every read (output budget, `NotFound` as the protocol's
 * resource-not-found).
 */
export const fixtureResources = [
  defineResource({
    name: 'static-text',
    uri: 'test://static-text',
    title: 'Static text',
    description: 'A fixed text resource.',
    mimeType: 'text/plain',
    read: (uri) => ({
      contents: [
        { uri: uri.href, mimeType: 'text/plain', text: 'This is the content of the static text resource.' },
      ],
    }),
  }),
  defineResource({
    name: 'static-binary',
    uri: 'test://static-binary',
    title: 'Static binary',
    description: 'A fixed 1x1 PNG image.',
    mimeType: 'image/png',
    read: (uri) => ({ contents: [{ uri: uri.href, mimeType: 'image/png', blob: RED_PIXEL_PNG }] }),
  }),
  defineResource({
    name: 'watched-resource',
    uri: 'test://watched-resource',
    title: 'Watched',
    description: 'A resource clients may subscribe to.',
    mimeType: 'text/plain',
    read: (uri) => ({
      contents: [{ uri: uri.href, mimeType: 'text/plain', text: 'Subscribe to hear when this changes.' }],
    }),
  }),
  defineResourceTemplate({
    name: 'template-data',
    uriTemplate: 'test://template/{id}/data',
    title: 'Template data',
    description: 'JSON data for any id.',
    mimeType: 'application/json',
    complete: { id: () => ['123', '456', '789'] },
    read(uri, variables) {
      const raw = variables.id;
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
    },
  }),
];
