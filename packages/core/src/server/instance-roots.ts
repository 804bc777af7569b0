import type { McpServer } from '@modelcontextprotocol/server';
import { inputRequired } from '@modelcontextprotocol/server';
import { errorMessage } from '../errors/index.js';
import type { Logger } from '../logging/logger.js';
import type { Flow } from '../mrtr/flow.js';
import { ClientRootsState } from '../roots/client-roots.js';
import type { RootSet } from '../roots/root-set.js';
import { rootUriToPath } from '../roots/uri.js';

/**
 * The roots of one server instance. The directories given on the command line are the ceiling;
 * the client's roots narrow them and never widen them.
 *
 * - 2025 era: the instance asks `roots/list` once the client is initialized and again on every
 *   `roots/list_changed`; calls wait for the first answer.
 * - 2026 era: there is no session, so a call that needs roots asks for them in its own round.
 */
export class InstanceRoots {
  private readonly state: ClientRootsState | undefined;

  constructor(
    private readonly ceiling: RootSet,
    era: 'legacy' | 'modern',
    mcp: McpServer,
    log: Logger,
    onChange: () => void,
  ) {
    if (era === 'modern') return;
    const state = new ClientRootsState(ceiling);
    this.state = state;
    // Only a real change is news: the first answer that merely confirms the ceiling is not.
    let last: RootSet = ceiling;
    state.onChange((roots) => {
      if (roots.sameAs(last)) return;
      last = roots;
      onChange();
    });
    const refresh = () => {
      const ticket = state.beginRefresh();
      mcp.server
        .listRoots(undefined, { timeout: 10_000 })
        .then((r) =>
          state.applyAnswer(ticket, r.roots.map((root) => rootUriToPath(root.uri)).filter(isString)),
        )
        .catch((error: unknown) => {
          log.debug(`roots/list failed: ${errorMessage(error)}`);
          state.failRefresh(ticket, error);
        });
    };
    const previous = mcp.server.oninitialized;
    mcp.server.oninitialized = () => {
      previous?.();
      if (mcp.server.getClientCapabilities()?.roots) refresh();
      else state.useCeiling();
    };
    mcp.server.setNotificationHandler('notifications/roots/list_changed', async () => {
      refresh();
    });
  }

  /** The directories this call may use. In the 2026 era this may end the round to ask for roots. */
  async forCall(flow: Flow): Promise<RootSet> {
    const state = this.state;
    if (state && (state.ready || !flow.abilities.roots)) return state.effective(flow.signal);
    if (state) {
      // The first answer is not in yet. Over 2025 HTTP the request sent at initialization can be
      // lost (the client's GET stream may not be open yet), so ask within this call, on its own
      // stream, and keep the answer for the calls after it.
      const answer = flow.ask('roots', inputRequired.listRoots());
      if (answer.kind !== 'roots') return state.effective(flow.signal);
      const ticket = state.beginRefresh();
      await state.applyAnswer(ticket, answer.uris.map(rootUriToPath).filter(isString));
      return state.effective(flow.signal);
    }
    if (flow.abilities.roots) {
      const answer = flow.ask('roots', inputRequired.listRoots());
      if (answer.kind !== 'roots') return this.ceiling;
      return this.ceiling.narrow(answer.uris.map(rootUriToPath).filter(isString));
    }
    return this.ceiling;
  }

  /** The roots in force without asking anyone: for listings outside a call (resources/list). */
  async current(): Promise<RootSet> {
    return this.state ? this.state.effective() : this.ceiling;
  }
}

function isString(value: string | undefined): value is string {
  return value !== undefined;
}
