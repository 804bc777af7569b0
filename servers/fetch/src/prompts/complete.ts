/** Completion sources the prompts share. */
export { recentUrls as completeUrl } from '../resources/recent-urls.js';

/** Common things to summarise a page for. */
export const completeFocus = (): string[] => [
  'key points',
  'action items',
  'technical details',
  'claims and evidence',
  'dates and numbers',
];
