/**
 * The README's install sections, written from the same entries the `config` command prints, so
 * a README cannot show an entry the code would not give.
 */
import { cursorInstallLink, vscodeWebInstallLink } from './deep-links.js';
import { HOST_INFO, hostEntry } from './hosts.js';
import { launchOf } from './launch.js';
import { HOSTS, type HostEntry, type LaunchSpec } from './types.js';

/** The fence language: a Windows command line is Command Prompt's, so `bat`. */
function lang(entry: HostEntry, windows: boolean): string {
  if (entry.format === 'shell') return windows ? 'bat' : 'sh';
  return entry.format;
}

/** A fenced block longer than any run of backticks inside, so an argument cannot close it early. */
function fenced(lang: string, text: string): string {
  const longest = Math.max(0, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}${lang}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/** A link destination Markdown cannot misread: parentheses encoded (they decode to themselves). */
function destination(url: string): string {
  return url.replaceAll('(', '%28').replaceAll(')', '%29');
}

/** The entry, then its Windows form folded away (every npx entry differs there: `cmd /c npx`). */
function block(entry: HostEntry, windows: HostEntry): string {
  const parts = [entry.where, '', fenced(lang(entry, false), entry.text)];
  if (windows.text !== entry.text) {
    const folded = fenced(lang(windows, true), windows.text);
    const summary = windows.format === 'shell' ? 'Windows (Command Prompt)' : 'Windows';
    parts.push('', '<details>', `<summary>${summary}</summary>`, '', folded, '', '</details>');
  }
  return parts.join('\n');
}

/** README markdown: one section per host with the npx entry (and the Windows form where it differs) and the VS Code / Cursor install links. Headings start at level 3. */
export function installMarkdown(spec: LaunchSpec): string {
  const npx = { form: { kind: 'npx' } } as const;
  const sections = [
    `Each entry starts the server with \`npx\`. \`${spec.bin} config <host> --absolute\` followed by the same arguments prints one that runs your installed copy with your own Node instead (no PATH or nvm surprises), and \`${spec.bin} config --help\` lists every host and form.`,
  ];
  for (const host of HOSTS) {
    const entry = hostEntry(host, spec, npx);
    const windows = hostEntry(host, spec, { ...npx, windows: true });
    const lines = [`### ${HOST_INFO[host].title}`, ''];
    const launch = launchOf(spec, npx.form);
    if (host === 'vscode') {
      const stable = destination(vscodeWebInstallLink(spec.name, launch));
      const insiders = destination(vscodeWebInstallLink(spec.name, launch, true));
      lines.push(`[Install in VS Code](${stable}) · [Install in VS Code Insiders](${insiders})`, '');
    }
    if (host === 'cursor')
      lines.push(`[Install in Cursor](${destination(cursorInstallLink(spec.name, launch))})`, '');
    lines.push(block(entry, windows));
    if (host === 'vscode') {
      const cli = hostEntry(host, spec, { ...npx, cli: true });
      lines.push('', block(cli, hostEntry(host, spec, { ...npx, cli: true, windows: true })));
    }
    sections.push(lines.join('\n'));
  }
  return `${sections.join('\n\n')}\n`;
}
