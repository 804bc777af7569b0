import { fetchTool } from './fetch.js';
import { fetchImageTool } from './fetch-image.js';
import { fetchLinks } from './fetch-links.js';
import { research } from './research.js';

/** Every tool of the fetch server, in the order `tools/list` shows them. */
export const tools = [fetchTool, fetchLinks, fetchImageTool, research];
