/**
 * The fetch server as a program: its command line, the settings a bundle asks for, and how a
 * parsed command line becomes the app. `bin.ts` runs it; the build tool reads it to write the
 * bundle manifest, server.json and the README's install examples.
 */
import { errorMessage } from '@mcpkit/core/errors';
import { type ServerBin, secondsOption, UsageError } from '@mcpkit/core/runner';
import { createAddressPolicy } from './net/address-policy.js';
import { DEFAULT_LIMITS, MAX_TOTAL_TIMEOUT_S } from './net/limits.js';
import { createFetchApp, NAME, PACKAGE_JSON } from './server.js';

/** Subscriptions poll the page's server, so the interval has a floor and a ceiling (a day). */
const MIN_INTERVAL_S = 0.1;
const MAX_INTERVAL_S = 86_400;

/** `--revalidate-interval` in milliseconds, or `undefined` when it was not given. */
function intervalMs(value: string | undefined, given: string): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (
    value.trim() === '' ||
    !Number.isFinite(seconds) ||
    seconds < MIN_INTERVAL_S ||
    seconds > MAX_INTERVAL_S
  )
    throw new UsageError(
      `${given} must be a number of seconds from ${MIN_INTERVAL_S} to ${MAX_INTERVAL_S}, e.g. 60 or 0.5.`,
    );
  return Math.round(seconds * 1000);
}

export const cli: ServerBin = {
  bin: NAME,
  packageJson: PACKAGE_JSON,
  title: 'Fetch (mcpkit)',
  usage:
    '[--user-agent <text>] [--ignore-robots-txt] [--allow-host <name>]... [--allow-cidr <range>]... ' +
    '[--revalidate-interval <seconds>] [--total-timeout <seconds>]',
  exampleArgs: [],
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
    'total-timeout': {
      type: 'string',
      description: `seconds one download may take in all, redirects and body included (default ${DEFAULT_LIMITS.totalTimeoutMs / 1000}; 1 to ${MAX_TOTAL_TIMEOUT_S})`,
      valueName: 'seconds',
    },
  },
  settings: {
    allowed_hosts: {
      title: 'Private hosts allowed',
      description:
        'Hosts on your own network the server may reach, comma-separated (e.g. wiki.corp, *.corp); public sites need none.',
      type: 'string',
      fills: { flag: 'allow-host' },
    },
    ignore_robots_txt: {
      title: 'Ignore robots.txt',
      description: 'Fetch pages even where the site asks robots not to.',
      type: 'boolean',
      default: false,
      fills: { flag: 'ignore-robots-txt' },
    },
    user_agent: {
      title: 'User-Agent',
      description: 'The User-Agent header tool calls send; leave empty for the default.',
      type: 'string',
      fills: { flag: 'user-agent' },
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
    const revalidateIntervalMs = intervalMs(
      cli.values['revalidate-interval'] as string | undefined,
      cli.sources['revalidate-interval'] ?? '--revalidate-interval',
    );
    const total = secondsOption(
      cli,
      'total-timeout',
      { min: 1, max: MAX_TOTAL_TIMEOUT_S },
      (source) =>
        `${source} must be a whole number of seconds from 1 to ${MAX_TOTAL_TIMEOUT_S}, e.g. ${DEFAULT_LIMITS.totalTimeoutMs / 1000}.`,
    );
    return createFetchApp({
      log,
      allow,
      ...(total !== undefined ? { limits: { totalTimeoutMs: total } } : {}),
      ...(revalidateIntervalMs !== undefined ? { revalidateIntervalMs } : {}),
      ignoreRobotsTxt: cli.values['ignore-robots-txt'] === true,
      ...(userAgent !== undefined ? { userAgent } : {}),
      ...(cli.common.pageSize ? { pageSize: cli.common.pageSize } : {}),
      ...(cli.common.outputLimitBytes ? { outputLimitBytes: cli.common.outputLimitBytes } : {}),
    });
  },
};
