/**
 * Paths no tarball may hold: tests, sources (ours or a sibling's), build caches, secrets and dev
 * configuration. A shipped tsconfig is not harmless: bundlers read a dependency's tsconfig and
 * fail on an `extends` that points into a monorepo the user does not have.
 */
const FORBIDDEN: [RegExp, string][] = [
  [/(?:^|\/)(?:test|tests|__tests__|__snapshots__|fixtures)\//, 'a test folder'],
  [/\.(?:test|spec)\.[cm]?[jt]sx?$/, 'a test file'],
  [/(?:^|\/)src\//, 'a source folder'],
  [/(?<!\.d)\.[cm]?tsx?$/, 'TypeScript source'],
  [/\.tsbuildinfo$/, 'a build cache'],
  [/(?:^|\/)(?:\.turbo|\.reports|node_modules|coverage)\//, 'a tool folder'],
  [/(?:^|\/)\.env(?:\.|$)/, 'an env file'],
  [/(?:^|\/)\.npmrc$/, 'npm credentials'],
  [/\.(?:pem|key|p12|pfx|crt)$/, 'a key or certificate'],
  [/(?:^|\/)id_(?:rsa|dsa|ecdsa|ed25519)/, 'an SSH key'],
  [
    /(?:^|\/)(?:tsconfig[^/]*\.json|vitest\.config\.[cm]?[jt]s|biome\.json|turbo\.json)$/,
    'dev configuration',
  ],
];

/** Why `path` (relative to the tarball's `package/`) must not ship; empty when it may. */
export function forbiddenReasons(path: string): string[] {
  return FORBIDDEN.filter(([pattern]) => pattern.test(path)).map(([, why]) => why);
}
