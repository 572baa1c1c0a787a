// Adds lockfile entries for optional per-platform packages (rollup, tailwind oxide) that the registry reachable
// here does not serve in the pinned version. `npm install` silently leaves such optional packages out of
// package-lock.json, and `npm ci` then refuses the lockfile as "out of sync". An entry that names the package's
// os/cpu/libc lets `npm ci` see it, judge it foreign to this platform and skip it without downloading anything.
// Run after every `npm install` that rewrites the lockfile: `node scripts/lockfile-platforms.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));

/** Platform fields from the package-name suffix both projects use (e.g. "linux-arm-musleabihf", "win32-x64-msvc"). */
function platformOf(name) {
  const suffix = name.split('/').pop().replace(/^(rollup|oxide)-/, '');
  const [os, cpu, abi] = suffix.split('-');
  if (os === 'wasm32') return { cpu: ['wasm32'] };
  const entry = { cpu: [cpu], os: [os] };
  if (os === 'linux') entry.libc = [abi?.startsWith('musl') ? 'musl' : 'glibc'];
  return entry;
}

let added = 0;
for (const [location, pkg] of Object.entries(lock.packages)) {
  for (const [dep, version] of Object.entries(pkg.optionalDependencies ?? {})) {
    const base = location ? `${location}/node_modules/${dep}` : `node_modules/${dep}`;
    const hoisted = `node_modules/${dep}`;
    if (lock.packages[base] || lock.packages[hoisted]) continue;
    if (!/^@(rollup|tailwindcss)\//.test(dep)) continue;
    lock.packages[hoisted] = { version, ...platformOf(dep), license: 'MIT', optional: true };
    added += 1;
  }
}

lock.packages = Object.fromEntries(
  Object.entries(lock.packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`lockfile-platforms: added ${added} foreign-platform entries`);
