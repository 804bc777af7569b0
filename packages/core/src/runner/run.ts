import type { McpServerFactory } from '@modelcontextprotocol/server';
import { errorMessage } from '../errors/index.js';
import { createLogger, type Logger } from '../logging/logger.js';
import { readPackageInfo } from '../server/package-info.js';
import type { App } from '../server/types.js';
import { helpText, type ParsedCommandLine, parseCommandLine, TOKEN_ENV } from './cli.js';
import type { ServerBin } from './server-bin.js';
import { hubListenHooks, serveAppStdio } from './stdio.js';

/**
 * The factory for an HTTP listener: 2025 sessions are long-lived and get notifications,
 * 2026 requests get a throwaway instance each.
 */
export function httpFactory(app: App): McpServerFactory {
  const connection = app.factory('connection');
  const request = app.factory('request');
  return (rc) => (rc.era === 'legacy' ? connection(rc) : request(rc));
}

/** Closes the app; a context that fails to close is logged, never a crash on the way out. */
async function closeApp(app: App, log: Logger): Promise<void> {
  try {
    await app.close();
  } catch (error) {
    log.error(`closing failed: ${errorMessage(error)}`);
  }
}

/**
 * Runs a bin: parses the command line, builds the app, serves stdio or HTTP, and shuts down
 * cleanly on SIGINT, SIGTERM or the end of stdin (in-flight calls cancelled, watchers closed,
 * exit 0). A command line that cannot work prints one sentence and exits with 2.
 *
 * @example
 * ```ts
 * await runServer({
 *   bin: 'mcpkit-notes',
 *   packageJson: new URL('../package.json', import.meta.url),
 *   usage: '[options]',
 *   create: (cli, log) =>
 *     createApp({ name: 'mcpkit-notes', version: '1.0.0' }, { log, readOnly: cli.common.readOnly }),
 * });
 * ```
 */
export async function runServer(bin: ServerBin, argv: string[] = process.argv.slice(2)): Promise<void> {
  if (argv[0] === 'config') {
    // `<bin> config <host> …` prints a host entry and starts nothing; loaded only when asked for.
    const { configCommand } = await import('../install/config-command.js');
    process.exitCode = configCommand(bin, argv.slice(1));
    return;
  }
  const info = readPackageInfo(bin.packageJson);
  let cli: ParsedCommandLine;
  let log: Logger;
  let app: App;
  try {
    cli = parseCommandLine(argv, bin.options, process.env, bin.bin);
    if (cli.help) {
      process.stdout.write(helpText(bin.bin, info, bin.usage, bin.options ?? {}));
      return;
    }
    if (cli.version) {
      process.stdout.write(`${info.version}\n`);
      return;
    }
    log = createLogger({ name: bin.bin, level: cli.common.logLevel });
    // A MCPKIT_ variable this bin does not read is most likely a typo: say so, never refuse to start.
    for (const warning of cli.warnings) log.warn(warning);
    app = await bin.create(cli, log);
  } catch (error) {
    const message = errorMessage(error);
    process.stderr.write(`${bin.bin}: ${message}\nRun "${bin.bin} --help" for usage.\n`);
    process.exitCode = 2;
    return;
  }

  let closing: Promise<void> | undefined;
  const closers: (() => Promise<void>)[] = [];
  const shutdown = (why: string) => {
    closing ??= (async () => {
      log.debug(`shutting down (${why})`);
      // Never hang on exit: a stuck close must not keep the host waiting.
      setTimeout(() => process.exit(0), 3000).unref();
      await Promise.allSettled(closers.map((close) => close()));
      await closeApp(app, log);
      process.exit(0);
    })();
    return closing;
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  if (cli.common.transport === 'stdio') {
    const handle = serveAppStdio(app);
    closers.push(() => handle.close());
    // The host closing our stdin is the stdio way of saying goodbye.
    process.stdin.once('end', () => void shutdown('stdin closed'));
    process.stdin.once('close', () => void shutdown('stdin closed'));
    log.debug(`${info.name} ${info.version} serving on stdio`);
    return;
  }

  const token = process.env[TOKEN_ENV] || undefined;
  try {
    const hooks = hubListenHooks(app.hub, app);
    // Loaded only for HTTP: the stdio path should not pay for the HTTP stack at start-up.
    const { startHttpServer } = await import('./http-server.js');
    const server = await startHttpServer({
      factory: httpFactory(app),
      host: cli.common.host,
      port: cli.common.port,
      allowedOrigins: cli.common.allowedOrigins,
      allowedHosts: cli.common.allowedHosts,
      ...(token ? { token } : {}),
      log,
      onModernHandler: (handler) => {
        app.hub.addTarget({
          resourceUpdated: (uri) => handler.notify.resourceUpdated(uri),
          listChanged: (kind) => {
            if (kind === 'tools') handler.notify.toolsChanged();
            else if (kind === 'prompts') handler.notify.promptsChanged();
            else handler.notify.resourcesChanged();
          },
        });
      },
      onListen: hooks.onListen,
      onListenEnd: hooks.onListenEnd,
    });
    closers.push(() => server.close());
    if (app.keysEphemeral) {
      log.info(
        'MCPKIT_STATE_KEY is not set, so this process uses a random key: set the same value on every replica behind a load balancer.',
      );
    }
    process.stderr.write(
      `${bin.bin} ${info.version} listening on ${server.url}${token ? ' (bearer token required)' : ''}\n`,
    );
  } catch (error) {
    process.stderr.write(`${bin.bin}: ${errorMessage(error)}\n`);
    await closeApp(app, log);
    process.exitCode = 1;
  }
}
