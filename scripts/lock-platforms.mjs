// Records every optional platform binary (biome's, turbo's) in package-lock.json.
//
// Why: the registry this project installs from serves only the linux builds of these packages, so
// `npm install` leaves the other platforms out of the lock, and `npm ci` then refuses the lock as
// "missing" them. npm never fetches a package whose os/cpu do not match, so an entry that states
// the platform is all it needs. Run after any `npm install` that changes the lock.
import { readFileSync, writeFileSync } from 'node:fs';

const lockUrl = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockUrl, 'utf8'));
const packages = lock.packages;

function platformOf(name) {
  const n = name.toLowerCase();
  const os =
    ['darwin', 'linux', 'win32', 'android', 'freebsd'].find((o) => n.includes(o)) ??
    (n.includes('windows') ? 'win32' : undefined);
  const cpu = n.includes('arm64') ? 'arm64' : n.includes('x64') || n.includes('-64') ? 'x64' : undefined;
  const libc = n.includes('musl') ? 'musl' : undefined;
  return { os, cpu, libc };
}

let added = 0;
for (const [path, entry] of Object.entries(packages)) {
  for (const [dep, version] of Object.entries(entry.optionalDependencies ?? {})) {
    const key = `node_modules/${dep}`;
    if (packages[key]) continue;
    const { os, cpu, libc } = platformOf(dep);
    if (!os || !cpu) {
      console.error(`cannot tell the platform of ${dep} (needed by ${path || 'the root'}); add it by hand`);
      process.exitCode = 1;
      continue;
    }
    packages[key] = {
      version,
      cpu: [cpu],
      ...(entry.dev ? { dev: true } : {}),
      ...(libc ? { libc: [libc] } : {}),
      optional: true,
      os: [os],
    };
    added++;
  }
}
const sorted = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : 1)),
);
lock.packages = sorted;
writeFileSync(lockUrl, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform entries added`);
