import { UserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { defineTool } from './context.js';
import { RED_PIXEL_PNG, SILENT_WAV } from './media.js';

const NO_ARGS = z.object({});
const READ_ONLY = { readOnlyHint: true, idempotentHint: true, openWorldHint: false } as const;

/**
 * The suite's content-type tools. Core puts the text rendering first in every result, so each
 * answer is a text block followed by the block the scenario looks for.
 */
export const contentTools = [
  defineTool({
    name: 'test_simple_text',
    title: 'Simple text',
    description: 'Returns one text block.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: () => ({ text: 'This is a simple text response for testing.' }),
  }),
  defineTool({
    name: 'test_image_content',
    title: 'Image content',
    description: 'Returns a 1x1 PNG image.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: () => ({
      text: 'A 1x1 red pixel.',
      content: [{ type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' }],
    }),
  }),
  defineTool({
    name: 'test_audio_content',
    title: 'Audio content',
    description: 'Returns a short WAV clip.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: () => ({
      text: 'One millisecond of silence.',
      content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }],
    }),
  }),
  defineTool({
    name: 'test_embedded_resource',
    title: 'Embedded resource',
    description: 'Returns an embedded text resource.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: () => ({
      text: 'An embedded resource follows.',
      content: [
        {
          type: 'resource',
          resource: {
            uri: 'test://embedded-resource',
            mimeType: 'text/plain',
            text: 'This is an embedded resource content.',
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_multiple_content_types',
    title: 'Mixed content',
    description: 'Returns text, an image and an embedded resource.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: () => ({
      text: 'Multiple content types test:',
      content: [
        { type: 'image', data: RED_PIXEL_PNG, mimeType: 'image/png' },
        {
          type: 'resource',
          resource: {
            uri: 'test://mixed-content-resource',
            mimeType: 'application/json',
            text: JSON.stringify({ test: 'data', value: 123 }),
          },
        },
      ],
    }),
  }),
  defineTool({
    name: 'test_error_handling',
    title: 'Error handling',
    description: 'Always fails, to show how a tool reports an error.',
    input: NO_ARGS,
    annotations: READ_ONLY,
    run: () => {
      // A UserError is what core turns into an isError result with this one sentence.
      throw new UserError('This tool intentionally returns an error for testing');
    },
  }),
];
