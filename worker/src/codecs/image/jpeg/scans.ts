import { type BitReader, type HuffmanTable, JpegError } from './bit-reader.js';
import { idctBlock, ZIGZAG } from './reduced-idct.js';

/**
 * One scan's entropy-coded data (T.81 annex F for sequential, G for
 * progressive Huffman). Sequential blocks go straight to the reduced IDCT,
 * so only their low coefficients are kept; progressive ones accumulate all
 * 64 coefficients (refinement depends on every one of them) and are turned
 * into pixels after the last scan.
 */

export interface Component {
  readonly id: number;
  readonly h: number;
  readonly v: number;
  readonly tq: number;
  /** The block grid in MCUs (interleaved scans) and the blocks inside the image (single-component scans). */
  readonly blocksW: number;
  readonly blocksH: number;
  readonly usedW: number;
  readonly usedH: number;
  /** Pixels each block shrinks to, across and down. */
  readonly nx: number;
  readonly ny: number;
  /** Its samples at the output scale: blocksW·nx wide. */
  readonly plane: Uint8Array;
  /** Natural-order quantization table, taken at the component's first scan. */
  quant: Uint16Array | null;
  /** Progressive only: 64 coefficients per block, natural order. */
  coefs: Int16Array | null;
  pred: number;
}

export interface Frame {
  readonly progressive: boolean;
  readonly mcusW: number;
  readonly mcusH: number;
}

export interface Scan {
  readonly components: Component[];
  readonly dc: (HuffmanTable | undefined)[];
  readonly ac: (HuffmanTable | undefined)[];
  readonly ss: number;
  readonly se: number;
  readonly ah: number;
  readonly al: number;
  readonly restartInterval: number;
}

const blk = new Int32Array(64);

/** For each zig-zag position, its index in the kept N×N corner (natural order, stride 8), or −1. */
function keptPositions(nx: number, ny: number): Int8Array {
  const out = new Int8Array(64).fill(-1);
  for (let k = 0; k < 64; k++) {
    const z = ZIGZAG[k]!;
    if ((z & 7) < nx && z >> 3 < ny) out[k] = z;
  }
  return out;
}

function sequentialBlock(
  bits: BitReader,
  c: Component,
  dc: HuffmanTable,
  ac: HuffmanTable,
  kept: Int8Array,
  bx: number,
  by: number,
) {
  const q = c.quant!;
  for (let v = 0; v < c.ny; v++) for (let u = 0; u < c.nx; u++) blk[v * 8 + u] = 0;
  const d = bits.decodeValue(dc);
  if ((d & 255) > 15) throw new JpegError('bad DC coefficient size');
  c.pred += d >> 8;
  blk[0] = c.pred * q[0]!;
  for (let k = 1; k < 64; k++) {
    const x = bits.decodeValue(ac);
    if ((x & 15) === 0) {
      if ((x & 255) !== 0xf0) break; // end of block; 0xF0 is a run of 16 zeros
      k += 15;
      continue;
    }
    k += (x >> 4) & 15;
    if (k > 63) break;
    const z = kept[k]!;
    if (z >= 0) blk[z] = (x >> 8) * q[z]!;
  }
  idctBlock(blk, c.nx, c.ny, c.plane, c.blocksW * c.nx, bx * c.nx, by * c.ny);
}

type BlockDecoder = (c: Component, ci: number, at: number) => void;

/** The four progressive block kinds (G.1.2); `eobrun` spans blocks, so they share state. */
function progressiveDecoders(bits: BitReader, scan: Scan) {
  const { ss, se, al } = scan;
  let eobrun = 0;
  const dcFirst: BlockDecoder = (c, ci, at) => {
    const d = bits.decodeValue(scan.dc[ci]!);
    if ((d & 255) > 15) throw new JpegError('bad DC coefficient size');
    c.pred += d >> 8;
    c.coefs![at] = c.pred * (1 << al);
  };
  const dcRefine: BlockDecoder = (c, _ci, at) => {
    const coefs = c.coefs!;
    if (bits.bit()) coefs[at] = coefs[at]! | (1 << al);
  };
  const acFirst: BlockDecoder = (c, ci, at) => {
    if (eobrun > 0) {
      eobrun--;
      return;
    }
    const table = scan.ac[ci]!;
    const coefs = c.coefs!;
    for (let k = ss; k <= se; k++) {
      const x = bits.decodeValue(table);
      const r = (x >> 4) & 15;
      if ((x & 15) === 0) {
        if (r < 15) {
          eobrun = (1 << r) - 1 + bits.bits(r);
          break;
        }
        k += 15;
        continue;
      }
      k += r;
      if (k > 63) break;
      coefs[at + ZIGZAG[k]!] = (x >> 8) * (1 << al);
    }
  };
  const p1 = 1 << al;
  const m1 = -1 << al;
  // Refinement: every non-zero coefficient passed gets a correction bit.
  const acRefine: BlockDecoder = (c, ci, at) => {
    const coefs = c.coefs!;
    let k = ss;
    if (eobrun === 0) {
      const table = scan.ac[ci]!;
      for (; k <= se; k++) {
        // A new coefficient is ±1 (one sign bit): the value decodeValue reads.
        const x = bits.decodeValue(table);
        let r = (x >> 4) & 15;
        let s = x & 15;
        if (s !== 0) s = x >> 8 > 0 ? p1 : m1;
        else if (r !== 15) {
          eobrun = (1 << r) + bits.bits(r);
          break;
        }
        // Skip r zero coefficients (refining the non-zero ones passed), then place s.
        for (; k <= se; k++) {
          const z = at + ZIGZAG[k]!;
          const coef = coefs[z]!;
          if (coef !== 0) {
            if (bits.bit() && (coef & p1) === 0) coefs[z] = coef >= 0 ? coef + p1 : coef + m1;
          } else if (--r < 0) break;
        }
        if (s !== 0 && k <= se) coefs[at + ZIGZAG[k]!] = s;
      }
    }
    if (eobrun > 0) {
      for (; k <= se; k++) {
        const z = at + ZIGZAG[k]!;
        const coef = coefs[z]!;
        if (coef !== 0 && bits.bit() && (coef & p1) === 0) coefs[z] = coef >= 0 ? coef + p1 : coef + m1;
      }
      eobrun--;
    }
  };
  const dc = ss === 0;
  const first = scan.ah === 0;
  return {
    decode: dc ? (first ? dcFirst : dcRefine) : first ? acFirst : acRefine,
    reset: () => (eobrun = 0),
  };
}

/** Decodes one scan; the reader is left at the marker that ends it. */
export function decodeScan(bits: BitReader, frame: Frame, scan: Scan): void {
  const comps = scan.components;
  const progressive = frame.progressive ? progressiveDecoders(bits, scan) : null;
  const kept = comps.map((c) => keptPositions(c.nx, c.ny));
  const block = (c: Component, ci: number, bx: number, by: number) => {
    if (progressive) progressive.decode(c, ci, (by * c.blocksW + bx) * 64);
    else sequentialBlock(bits, c, scan.dc[ci]!, scan.ac[ci]!, kept[ci]!, bx, by);
  };
  const interval = scan.restartInterval;
  let todo = interval;
  const restart = () => {
    if (interval === 0) return;
    if (todo === 0) {
      bits.restart();
      for (const c of comps) c.pred = 0;
      progressive?.reset();
      todo = interval;
    }
    todo--;
  };
  if (comps.length === 1) {
    // A single-component scan codes the blocks inside the image only, one per MCU.
    const c = comps[0]!;
    for (let by = 0; by < c.usedH; by++) {
      for (let bx = 0; bx < c.usedW; bx++) {
        restart();
        block(c, 0, bx, by);
      }
    }
    return;
  }
  for (let my = 0; my < frame.mcusH; my++) {
    for (let mx = 0; mx < frame.mcusW; mx++) {
      restart();
      for (let ci = 0; ci < comps.length; ci++) {
        const c = comps[ci]!;
        for (let v = 0; v < c.v; v++) for (let h = 0; h < c.h; h++) block(c, ci, mx * c.h + h, my * c.v + v);
      }
    }
  }
}

/** After the last progressive scan: every block to pixels. */
export function finishProgressive(c: Component): void {
  if (!c.coefs || !c.quant) return; // never in a scan: stays grey (the plane starts at 128)
  const { coefs, quant, nx, ny } = c;
  const stride = c.blocksW * nx;
  for (let by = 0; by < c.blocksH; by++) {
    for (let bx = 0; bx < c.blocksW; bx++) {
      const at = (by * c.blocksW + bx) * 64;
      for (let v = 0; v < ny; v++)
        for (let u = 0; u < nx; u++) blk[v * 8 + u] = coefs[at + v * 8 + u]! * quant[v * 8 + u]!;
      idctBlock(blk, nx, ny, c.plane, stride, bx * nx, by * ny);
    }
  }
}
