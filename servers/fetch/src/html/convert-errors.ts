/**
 * The sentences a page gets when the conversion worker could not finish it: stopped at its
 * deadline, out of memory, a thread that died, or a failure that was not the user's. Each says
 * what was being done (Markdown or the list of links) and what to try instead.
 */
import { UserError } from '@mcpkit/core/errors';
import { CancelledError } from '@mcpkit/core/progress';
import type { ConvertTask } from './convert-protocol.js';

/** Why a thread was killed in the middle of a page. */
export type StopReason = 'deadline' | 'cancelled';

/** The page and task a sentence is about. */
export interface FailedJob {
  task: ConvertTask;
  url: URL;
  timeoutMs: number;
}

function seconds(ms: number): string {
  return `${Number((ms / 1000).toFixed(1))} s`;
}

function wording({ task, url }: FailedJob): { what: string; retry: string } {
  return task.kind === 'links'
    ? {
        what: `Listing the links of ${url.href}`,
        retry: 'read the page with fetch instead, or fetch a smaller page.',
      }
    : {
        what: `Converting ${url.href} to Markdown`,
        retry: 'fetch it again with raw=true, or fetch a smaller page.',
      };
}

/** The error for a page whose thread stopped before answering. */
export function stoppedError(job: FailedJob, stopping?: StopReason, code?: string): Error {
  const { what, retry } = wording(job);
  if (stopping === 'cancelled') return new CancelledError();
  if (stopping === 'deadline')
    return new UserError(`${what} took longer than ${seconds(job.timeoutMs)} and was stopped; ${retry}`);
  if (code === 'ERR_WORKER_OUT_OF_MEMORY')
    return new UserError(`${what} needed more memory than the converter may use and was stopped; ${retry}`);
  return new UserError(`${what} failed because the converter stopped unexpectedly; ${retry}`);
}

/** The error for a page the worker failed on with an error not written for the user (not shown). */
export function failedError(job: FailedJob): UserError {
  return job.task.kind === 'links'
    ? new UserError(`The links of ${job.url.href} could not be read; read the page with fetch instead.`)
    : new UserError(
        `${job.url.href} could not be converted to Markdown; fetch it again with raw=true to get it as it is.`,
      );
}
