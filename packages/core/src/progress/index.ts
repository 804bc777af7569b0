/**
 * Progress and cancellation: `call.progress` reports, `call.signal` aborts; these help long loops,
 * child processes and deadlines stop promptly; `companionScript` finds the script a worker thread or
 * child process runs.
 */
export { CancelledError, checkpoint, throwIfAborted, withDeadline } from './cancel.js';
export { companionScript } from './companion.js';
export { type ProcessResult, type RunProcessOptions, runProcess } from './process.js';
export { type ProgressOptions, type ProgressReporter, progress } from './reporter.js';
