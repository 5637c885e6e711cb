/**
 * What a structure walk found. `truncated` and `malformed` files are damaged
 * (an upload is kept and served as itself; no variant is made of it);
 * `flood` (more scans, chunks, frames or blocks than real encoders write) and
 * `mismatch` (sizes that disagree with the header every check reads) are
 * crafted, and refused at upload too.
 */
export type StructureProblem = 'truncated' | 'malformed' | 'flood' | 'mismatch';

export type StructureVerdict = { ok: true } | { ok: false; problem: StructureProblem; message: string };

export const OK: StructureVerdict = { ok: true };

export const refuse = (problem: StructureProblem, message: string): StructureVerdict => ({
  ok: false,
  problem,
  message,
});

export const TRUNCATED = refuse('truncated', 'The image is truncated');

export const u16be = (b: Uint8Array, o: number) => (b[o]! << 8) | b[o + 1]!;
export const u16le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8);
export const u24le = (b: Uint8Array, o: number) => b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16);
export const u32be = (b: Uint8Array, o: number) =>
  ((b[o]! << 24) | (b[o + 1]! << 16) | (b[o + 2]! << 8) | b[o + 3]!) >>> 0;
export const u32le = (b: Uint8Array, o: number) =>
  (b[o]! | (b[o + 1]! << 8) | (b[o + 2]! << 16) | (b[o + 3]! << 24)) >>> 0;
export const fourcc = (b: Uint8Array, o: number) => String.fromCharCode(b[o]!, b[o + 1]!, b[o + 2]!, b[o + 3]!);
