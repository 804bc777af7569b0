import { note } from './note.js';

/** Every resource and resource template of the notes server. */
export const resources = [note];
