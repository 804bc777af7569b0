/**
 * The three parts of undici this server calls (its Agent, its connector and its fetch), each
 * imported from its own module rather than from undici's index. The index also loads the mock
 * agent, WebSocket, EventSource, the HTTP cache, cookies and the interceptors: about 300 KiB the
 * bundled bin would compile and run at every start without ever using them. The paths are
 * undici's own layout; package.json pins its version exactly, and test/undici-parts.test.ts
 * holds each one to the export of undici's index it stands for. Types come from undici's index
 * (undici-modules.d.ts), with one gap: the index also adds `request`, `stream`, `pipeline`,
 * `connect` and `upgrade` to every dispatcher, so an Agent from here lacks them while its type
 * says otherwise. Only `fetch` with this Agent as its dispatcher is used; a test that imports
 * undici's index would hide a call to one of them, which would fail in the bundled bin.
 */

import buildConnector from 'undici/lib/core/connect.js';
import Agent from 'undici/lib/dispatcher/agent.js';
import fetchModule from 'undici/lib/web/fetch/index.js';

/** undici's fetch; the caller always hands it a dispatcher (the guarded agent). */
const { fetch } = fetchModule;

export { Agent, buildConnector, fetch };
