import { blob } from './blob.js';
import { commit } from './commit.js';
import { repoStatus } from './repo-status.js';

/** The git resources: every template is listed, completable, and the status is subscribable. */
export const resources = [repoStatus, blob, commit];
