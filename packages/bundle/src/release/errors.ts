/** A release that cannot be made: the message is one sentence saying what to fix. */
export class ReleaseError extends Error {}
