import { file } from './file.js';

/** Every resource and resource template of the filesystem server. */
export const resources = [file];
