#!/usr/bin/env node
// The bin: hands the command line to core's runner, which serves stdio or HTTP and shuts down
// cleanly. Everything the server is lives in server.ts.
import { errorMessage } from '@mcpkit/core/errors';
import { runServer, UsageError } from '@mcpkit/core/runner';
import { createAddressPolicy } from './net/address-policy.js';
import { createFetchApp, NAME, PACKAGE_JSON } from './server.js';

/** Subscriptions poll the page's server, so the interval has a floor and a ceiling (a day). */
const MIN_INTERVAL_S = 0.1;
const MAX_INTERVAL_S = 86_400;

/** `--revalidate-interval` in milliseconds, or `undefined` when it was not given. */
function intervalMs(value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (
    value.trim() === '' ||
    !Number.isFinite(seconds) ||
    seconds < MIN_INTERVAL_S ||
    seconds > MAX_INTERVAL_S
  )
    throw new UsageError(
      `--revalidate-interval must be a number of seconds from ${MIN_INTERVAL_S} to ${MAX_INTERVAL_S}, e.g. 60 or 0.5.`,
    );
  return Math.round(seconds * 1000);
}

await runServer({
  bin: NAME,
  packageJson: PACKAGE_JSON,
  usage:
    '[--user-agent <text>] [--ignore-robots-txt] [--allow-host <name>]... [--allow-cidr <range>]... ' +
    '[--revalidate-interval <seconds>]',
  options: {
    'user-agent': { type: 'string', description: 'the User-Agent of tool calls', valueName: 'text' },
    'ignore-robots-txt': { type: 'boolean', description: 'fetch pages that robots.txt disallows' },
    'allow-host': {
      type: 'string',
      multiple: true,
      description: 'a host reached although it is private, e.g. wiki.corp or *.corp (repeatable)',
      valueName: 'name',
    },
    'allow-cidr': {
      type: 'string',
      multiple: true,
      description: 'an address range reached although it is private, e.g. 10.1.0.0/16 (repeatable)',
      valueName: 'range',
    },
    'revalidate-interval': {
      type: 'string',
      description: 'seconds between re-checks of a subscribed cached page (default 60; fractions allowed)',
      valueName: 'seconds',
    },
  },
  async create(cli, log) {
    if (cli.positionals.length > 0) {
      throw new UsageError(`Unexpected argument ${cli.positionals[0]}; this server takes flags only.`);
    }
    const allow = {
      hosts: (cli.values['allow-host'] as string[] | undefined) ?? [],
      cidrs: (cli.values['allow-cidr'] as string[] | undefined) ?? [],
    };
    try {
      createAddressPolicy(allow); // a bad host pattern or range is the command line's fault
    } catch (error) {
      throw new UsageError(errorMessage(error));
    }
    const userAgent = cli.values['user-agent'] as string | undefined;
    const revalidateIntervalMs = intervalMs(cli.values['revalidate-interval'] as string | undefined);
    return createFetchApp({
      log,
      allow,
      ...(revalidateIntervalMs !== undefined ? { revalidateIntervalMs } : {}),
      ignoreRobotsTxt: cli.values['ignore-robots-txt'] === true,
      ...(userAgent !== undefined ? { userAgent } : {}),
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
});
