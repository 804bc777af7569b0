export { CancelledError, checkpoint, throwIfAborted, withDeadline } from './cancel.js';
export { type ProcessResult, type RunProcessOptions, runProcess } from './process.js';
export { type ProgressOptions, type ProgressReporter, progress } from './reporter.js';
