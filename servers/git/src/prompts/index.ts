import { releaseNotes } from './release-notes.js';
import { reviewChanges } from './review-changes.js';

/** The git prompts: every argument completes, refs from the repository already chosen. */
export const prompts = [reviewChanges, releaseNotes];
