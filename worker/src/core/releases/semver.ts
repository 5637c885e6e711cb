/** Semantic-version precedence (semver.org §11), for the versions ManifestSchema accepts. */
export function compareVersions(a: string, b: string): number {
  const [coreA, preA] = split(a);
  const [coreB, preB] = split(b);
  for (let i = 0; i < 3; i++) {
    if (coreA[i]! !== coreB[i]!) return coreA[i]! < coreB[i]! ? -1 : 1;
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  const pa = preA.split('.');
  const pb = preB.split('.');
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const x = pa[i];
    const y = pb[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    if (x === y) continue;
    const nx = /^\d+$/.test(x);
    const ny = /^\d+$/.test(y);
    if (nx && ny) return Number(x) < Number(y) ? -1 : 1;
    if (nx !== ny) return nx ? -1 : 1;
    return x < y ? -1 : 1;
  }
  return 0;
}

function split(v: string): [number[], string | undefined] {
  const dash = v.indexOf('-');
  const core = (dash < 0 ? v : v.slice(0, dash)).split('.').map(Number);
  if (core.length !== 3 || core.some((n) => !Number.isSafeInteger(n))) throw new TypeError(`not a version: ${v}`);
  return [core, dash < 0 ? undefined : v.slice(dash + 1)];
}
