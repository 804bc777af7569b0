import { explainDirectory } from './explain-directory.js';
import { reviewFile } from './review-file.js';

/** Every prompt of the filesystem server. */
export const prompts = [reviewFile, explainDirectory];
