/**
 * Inverse DCT at a reduced size (libjpeg's "DCT scaling"): an N-point IDCT
 * of the block's lowest N×N coefficients gives the block shrunk to N×N
 * pixels (N = 8, 4, 2 or 1), so a picture decoded at 1/4 never exists at
 * full size. N may differ across and down, which is how subsampled chroma
 * comes out at the luma's scale with no upsampling step.
 */

/** m[i·N + u] = C(u)/2 · cos((2i + 1)uπ / 2N): one 1-D pass of f = ¼ ΣΣ C C F cos cos. */
function basis(n: number): Float64Array {
  const m = new Float64Array(n * n);
  for (let i = 0; i < n; i++) {
    for (let u = 0; u < n; u++) {
      m[i * n + u] = ((u === 0 ? Math.SQRT1_2 : 1) / 2) * Math.cos(((2 * i + 1) * u * Math.PI) / (2 * n));
    }
  }
  return m;
}

const BASES: Record<number, Float64Array> = { 1: basis(1), 2: basis(2), 4: basis(4), 8: basis(8) };

/** Natural (row-major) index of each zig-zag position (T.81 figure A.6). */
export const ZIGZAG = new Uint8Array([
  0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
  35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
  55, 62, 63,
]);

const tmp = new Float64Array(64);
const clamp = (v: number) => (v < 0 ? 0 : v > 255 ? 255 : v | 0);

// 4-point constants: C(u)/2 · cos(uπ/8) for u = 0…3.
const C0 = Math.SQRT1_2 / 2;
const C1 = Math.cos(Math.PI / 8) / 2;
const C2 = Math.cos((2 * Math.PI) / 8) / 2;
const C3 = Math.cos((3 * Math.PI) / 8) / 2;

/** 2×2: the four lowest coefficients, sums and differences. */
function idct2(f: Int32Array, plane: Uint8Array, at: number, stride: number) {
  const a = f[0]!;
  const b = f[1]!;
  const c = f[8]!;
  const d = f[9]!;
  plane[at] = clamp((a + b + c + d) / 8 + 128.5);
  plane[at + 1] = clamp((a - b + c - d) / 8 + 128.5);
  plane[at + stride] = clamp((a + b - c - d) / 8 + 128.5);
  plane[at + stride + 1] = clamp((a - b - c + d) / 8 + 128.5);
}

/** 4×4: rows then columns of the even/odd 4-point IDCT. */
function idct4(f: Int32Array, plane: Uint8Array, at: number, stride: number) {
  for (let v = 0; v < 4; v++) {
    const r = v * 8;
    const e0 = C0 * f[r]! + C2 * f[r + 2]!;
    const e1 = C0 * f[r]! - C2 * f[r + 2]!;
    const o0 = C1 * f[r + 1]! + C3 * f[r + 3]!;
    const o1 = C3 * f[r + 1]! - C1 * f[r + 3]!;
    tmp[v * 4] = e0 + o0;
    tmp[v * 4 + 1] = e1 + o1;
    tmp[v * 4 + 2] = e1 - o1;
    tmp[v * 4 + 3] = e0 - o0;
  }
  for (let j = 0; j < 4; j++) {
    const e0 = C0 * tmp[j]! + C2 * tmp[8 + j]!;
    const e1 = C0 * tmp[j]! - C2 * tmp[8 + j]!;
    const o0 = C1 * tmp[4 + j]! + C3 * tmp[12 + j]!;
    const o1 = C3 * tmp[4 + j]! - C1 * tmp[12 + j]!;
    plane[at + j] = clamp(e0 + o0 + 128.5);
    plane[at + stride + j] = clamp(e1 + o1 + 128.5);
    plane[at + 2 * stride + j] = clamp(e1 - o1 + 128.5);
    plane[at + 3 * stride + j] = clamp(e0 - o0 + 128.5);
  }
}

/**
 * Any other size (8×8, or different across and down for subsampled chroma):
 * straight from the definition, which the tests hold the fast sizes to.
 */
export function idctGeneric(f: Int32Array, nx: number, ny: number, plane: Uint8Array, at: number, stride: number) {
  const mx = BASES[nx]!;
  const my = BASES[ny]!;
  for (let v = 0; v < ny; v++) {
    for (let j = 0; j < nx; j++) {
      let sum = 0;
      for (let u = 0; u < nx; u++) sum += f[v * 8 + u]! * mx[j * nx + u]!;
      tmp[v * nx + j] = sum;
    }
  }
  for (let i = 0; i < ny; i++) {
    for (let j = 0; j < nx; j++) {
      let sum = 128.5;
      for (let v = 0; v < ny; v++) sum += my[i * ny + v]! * tmp[v * nx + j]!;
      plane[at + i * stride + j] = clamp(sum);
    }
  }
}

/**
 * Writes the `nx`×`ny` pixels of one block to `plane` at (x0, y0) from its
 * dequantized coefficients `f` (natural order, rows of 8; only the lowest
 * `ny` rows × `nx` columns are read).
 */
export function idctBlock(
  f: Int32Array,
  nx: number,
  ny: number,
  plane: Uint8Array,
  stride: number,
  x0: number,
  y0: number,
): void {
  const at = y0 * stride + x0;
  if (nx === ny) {
    if (nx === 2) {
      idct2(f, plane, at, stride);
      return;
    }
    if (nx === 4) {
      idct4(f, plane, at, stride);
      return;
    }
    if (nx === 1) {
      plane[at] = clamp(f[0]! / 8 + 128.5);
      return;
    }
  }
  idctGeneric(f, nx, ny, plane, at, stride);
}
