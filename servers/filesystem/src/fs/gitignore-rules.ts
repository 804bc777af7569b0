import { compileGlobTest, type GlobTest } from './glob-match.js';

/** What one .gitignore says about a path: ignored, explicitly re-included (`!rule`), or nothing. */
export interface IgnoreVerdict {
  ignored: boolean;
  unignored: boolean;
}

interface Rule {
  negated: boolean;
  directoryOnly: boolean;
  /** Matched against the whole path (a rule with a `/` before its end), or only the last name. */
  anchored: boolean;
  test: GlobTest;
}

const NONE: IgnoreVerdict = { ignored: false, unignored: false };

/**
 * The rules of one .gitignore file, matched as git does (and case-insensitively, as the `ignore`
 * package did before): the last rule that matches decides, a rule ending in `/` matches
 * directories only, a rule with a `/` elsewhere is relative to the file's directory, `**` spans
 * directories, and nothing inside an ignored directory can be re-included. Rules are matched by
 * `compileGlobTest`, never by a regex, so a hostile .gitignore cannot stall the server.
 *
 * Paths are relative to the .gitignore's directory, `/`-separated; a directory ends with `/`.
 *
 * @example
 * ```ts
 * const rules = new GitignoreRules('*.log\n!keep.log\nbuild/\n');
 * rules.test('a/x.log'); // { ignored: true, unignored: false }
 * rules.test('build/');  // { ignored: true, unignored: false }
 * ```
 */
export class GitignoreRules {
  readonly #rules: Rule[] = [];
  readonly #directories = new Map<string, IgnoreVerdict>();

  constructor(text: string) {
    for (const line of text.split(/\r?\n/)) {
      const rule = parseRule(line);
      if (rule) this.#rules.push(rule);
    }
  }

  /** The verdict for `path`: its own, unless a directory above it (in this file's scope) is ignored. */
  test(path: string): IgnoreVerdict {
    return path.endsWith('/') ? this.#directory(path) : this.#compute(path);
  }

  #compute(path: string): IgnoreVerdict {
    const cut = path.endsWith('/') ? path.length - 1 : path.length;
    const slash = path.lastIndexOf('/', cut - 1);
    if (slash > 0) {
      const parent = this.#directory(path.slice(0, slash + 1));
      if (parent.ignored) return parent;
    }
    return this.#own(path);
  }

  // Directories are asked about again for every entry below them: remember the answers.
  #directory(path: string): IgnoreVerdict {
    let verdict = this.#directories.get(path);
    if (verdict === undefined) {
      verdict = this.#compute(path);
      this.#directories.set(path, verdict);
    }
    return verdict;
  }

  #own(path: string): IgnoreVerdict {
    const isDirectory = path.endsWith('/');
    const bare = isDirectory ? path.slice(0, -1) : path;
    if (bare === '') return NONE;
    const name = bare.slice(bare.lastIndexOf('/') + 1);
    for (let i = this.#rules.length - 1; i >= 0; i--) {
      const rule = this.#rules[i]!;
      if (rule.directoryOnly && !isDirectory) continue;
      if (!rule.test(rule.anchored ? bare : name)) continue;
      return rule.negated ? { ignored: false, unignored: true } : { ignored: true, unignored: false };
    }
    return NONE;
  }
}

function parseRule(line: string): Rule | undefined {
  if (line === '' || line.startsWith('#')) return undefined;
  let body = trimTrailingSpaces(line);
  let negated = false;
  if (body.startsWith('!')) {
    negated = true;
    body = body.slice(1);
  }
  const directoryOnly = body.endsWith('/');
  body = body.replace(/\/+$/, '');
  const anchored = body.includes('/');
  body = body.replace(/^\/+/, '');
  if (body === '') return undefined;
  return {
    negated,
    directoryOnly,
    anchored,
    test: compileGlobTest(body, { nocase: true, trailingGlobstarNeedsOne: true, braces: false }),
  };
}

// Trailing spaces are dropped unless escaped with a backslash (`foo\ ` keeps one).
function trimTrailingSpaces(line: string): string {
  let end = line.length;
  while (end > 0 && (line[end - 1] === ' ' || line[end - 1] === '\t')) {
    let backslashes = 0;
    for (let i = end - 2; i >= 0 && line[i] === '\\'; i--) backslashes++;
    if (backslashes % 2 === 1) break;
    end--;
  }
  return line.slice(0, end);
}
