/**
 * The attack table (the spec's Streamable HTTP guidance, and gaps seen with SDK 2.4), one file per
 * part of the request attacked. Attacks that need several requests (sessions, concurrency, slow
 * clients, floods) live in their own test files.
 */
import type { Attack } from './attack.js';
import { AUTH_ATTACKS } from './auth.js';
import { BODY_ATTACKS } from './body.js';
import { HEAD_ATTACKS } from './head.js';
import { SESSION_ATTACKS } from './sessions.js';

export { type Attack, goodRequest } from './attack.js';

export const ATTACKS: Attack[] = [...HEAD_ATTACKS, ...AUTH_ATTACKS, ...BODY_ATTACKS, ...SESSION_ATTACKS];
