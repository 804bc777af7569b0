import { isUserError } from '@mcpkit/core/errors';
import * as z from 'zod';
import { shownUrl } from '../content/shown.js';
import { definePrompt } from '../context.js';
import { completeUrl } from './complete.js';
import { promptPage } from './prompt-page.js';

/**
 * `fetch(url)`, the official server's prompt: the page's content as a user message. A page that
 * cannot be fetched becomes a message saying why, as the official prompt does, so the user sees
 * the reason in the conversation instead of a protocol error.
 */
export const fetchPrompt = definePrompt({
  name: 'fetch',
  title: 'Fetch a web page',
  description:
    'Puts the content of a web page, converted to Markdown, into the conversation. Chosen by the user, so ' +
    'robots.txt is not consulted; private addresses stay out of reach.',
  args: z.object({
    url: z.string().describe('The http or https URL of the page'),
  }),
  complete: { url: completeUrl },
  async get({ url }, call) {
    try {
      const page = await promptPage(call, url);
      return {
        description: `Contents of ${url}`,
        messages: [
          {
            role: 'user',
            content: { type: 'text', text: `Contents of ${shownUrl(page.finalUrl)}:\n${page.text}` },
          },
        ],
      };
    } catch (error) {
      // Only a sentence written for the user goes into the conversation; a bug stays a bug.
      if (!isUserError(error) || call.signal.aborted) throw error;
      return {
        description: `Failed to fetch ${url}`,
        messages: [{ role: 'user', content: { type: 'text', text: error.message } }],
      };
    }
  },
});
