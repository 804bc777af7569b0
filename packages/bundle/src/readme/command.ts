/**
 * `mcpkit-bundle readme [--check]`: rewrites the generated sections of a server's README.md from
 * its built description (dist/tools, dist/cli). Run from the server's package folder after build.
 */
import { DescribeError } from './describe.js';
import { updateReadme } from './generate.js';
import { MarkerError } from './markers.js';

export const README_USAGE = `Usage: mcpkit-bundle readme [--check]
Rewrites the generated sections of README.md from the built server (run it in the server's package
folder after the build): between <!-- generated:tools --> and <!-- /generated:tools --> the table
of tools, from dist/tools/index.js; between <!-- generated:install --> and
<!-- /generated:install --> the entry for each host, from dist/cli.js. The author places the
markers; nothing outside them changes.
  --check   write nothing; exit 1 if a section differs from what the build makes now`;

const FIX = 'run "mcpkit-bundle readme" in this folder after the build to update it';

function fail(message: string): void {
  process.stderr.write(`mcpkit-bundle readme: ${message}\n`);
  process.exitCode = 1;
}

/**
 * The `readme` subcommand. Problems a user can fix (no markers, not built, a stale section under
 * `--check`) print one sentence and set exit code 1; it throws only on a bug.
 */
export async function readmeCommand(args: string[]): Promise<void> {
  if (args.includes('--help') || args.includes('-h')) {
    process.stdout.write(`${README_USAGE}\n`);
    return;
  }
  const unknown = args.find((a) => a !== '--check');
  if (unknown !== undefined) {
    fail(`Unexpected argument ${unknown}; run mcpkit-bundle readme --help for the usage.`);
    return;
  }
  const check = args.includes('--check');
  try {
    const { stale, written } = await updateReadme(process.cwd(), { check });
    if (check && stale.length > 0) {
      const several = stale.length > 1;
      fail(
        `README.md's generated ${stale.join(' and ')} section${several ? 's differ' : ' differs'} from the build; ${FIX}.`,
      );
    } else if (written) {
      process.stdout.write(
        `README.md: updated the generated ${stale.join(' and ')} section${stale.length > 1 ? 's' : ''}\n`,
      );
    } else {
      process.stdout.write('README.md: the generated sections are up to date\n');
    }
  } catch (error) {
    if (error instanceof MarkerError || error instanceof DescribeError) fail(error.message);
    else throw error;
  }
}
