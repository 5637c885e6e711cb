/** Types for tests that read what a Node release carries. */
export const NODE_RELEASE_PATHS: string[];
export function releasePaths(root: string): string[];
export function writeNodeTarball(root: string, outFile: string): { name: string; sha256: string; length: number };
export function describeFile(file: string): { name: string; sha256: string; length: number };
export function listFiles(dir: string, base?: string): string[];
