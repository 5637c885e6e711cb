// Types for scripts/require-node.mjs (plain JavaScript so that an older Node can run it).
export declare const REQUIRED_NODE: readonly [number, number];
export declare function nodeIsRecentEnough(version: string): boolean;
