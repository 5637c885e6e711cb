/**
 * What the Node bundle (scripts/build-node.ts) cannot carry, so the
 * container's runtime stage installs it: native code (better-sqlite3), the
 * server-only database drivers the bundle leaves external (mysql2,
 * postgres), and the WebP encoder's wasm, read from node_modules at run time
 * (worker/src/adapters/image/webp-wasm.node.ts). Everything else is inside
 * dist/node.
 */
export const RUNTIME_PACKAGES = ['better-sqlite3', 'mysql2', 'postgres', '@jsquash/webp'] as const;

interface LockPackage {
  version?: string;
  dev?: boolean;
  optional?: boolean;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
}
export interface PackageLock {
  packages: Record<string, LockPackage>;
}

/**
 * The node_modules paths of `roots` and everything they depend on, as
 * package-lock.json resolved them (npm's lookup: the nearest node_modules
 * up from the dependent), sorted. Exactly what `npm ci` put there, so
 * copying these directories gives the runtime the locked versions.
 */
export function runtimeClosure(lock: PackageLock, roots: readonly string[] = RUNTIME_PACKAGES): string[] {
  const found = new Set<string>();
  // `node_modules/a/node_modules/@s/b` → `node_modules/a`; a top-level package has no parent.
  const parentOf = (key: string): string | null => {
    const i = key.lastIndexOf('/node_modules/');
    return i === -1 ? null : key.slice(0, i);
  };
  const resolve = (from: string, name: string): string | undefined => {
    for (let dir: string | null = from; dir !== null; dir = parentOf(dir)) {
      if (lock.packages[`${dir}/node_modules/${name}`]) return `${dir}/node_modules/${name}`;
    }
    return lock.packages[`node_modules/${name}`] ? `node_modules/${name}` : undefined;
  };
  const visit = (key: string) => {
    if (found.has(key)) return;
    found.add(key);
    const entry = lock.packages[key]!;
    for (const name of Object.keys(entry.dependencies ?? {})) {
      const dep = resolve(key, name);
      if (!dep) throw new Error(`${key} needs ${name}, which package-lock.json does not have`);
      visit(dep);
    }
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      const dep = resolve(key, name);
      if (dep) visit(dep); // an optional one for another platform is not in the lock's tree
    }
  };
  for (const root of roots) {
    const key = `node_modules/${root}`;
    if (!lock.packages[key]) throw new Error(`${root} is not in package-lock.json`);
    visit(key);
  }
  return [...found].sort();
}

/**
 * Inside a package, what the runtime needs of it, when that is less than
 * the whole directory: better-sqlite3 ships its C sources (10 MB) and
 * prebuilt binaries for eight platforms (17 MB); the container needs its
 * JavaScript and the one binary for its own platform (lib/binding.js picks
 * `prebuilds/<platform>-<arch>.node`). Paths relative to the package.
 */
export function keptOf(pkg: string, target: string): string[] | null {
  if (pkg === 'node_modules/better-sqlite3') return ['package.json', 'LICENSE', 'lib', `prebuilds/${target}.node`];
  return null;
}
