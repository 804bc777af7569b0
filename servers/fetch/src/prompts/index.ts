import { fetchPrompt } from './fetch.js';
import { summarizePage } from './summarize-page.js';

/** Every prompt of the fetch server: both fetch a page the user chose, and complete fetched URLs. */
export const prompts = [fetchPrompt, summarizePage];
