import { reviewNote } from './review-note.js';

/** Every prompt of the notes server. */
export const prompts = [reviewNote];
