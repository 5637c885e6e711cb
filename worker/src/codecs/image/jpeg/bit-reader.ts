/**
 * Huffman tables and the entropy-coded bit stream of a JPEG scan (ITU T.81
 * annex C and F.2.2). Hot code: every coefficient of the picture passes
 * through `decode`, so a 9-bit lookahead table answers most codes in one step.
 */

export class JpegError extends Error {}

/** Beyond a limit (scans, segments): refused outright, never handed to another decoder. */
export class JpegLimitError extends JpegError {}

const LOOKAHEAD = 9;
/** Lookahead of the combined table: a code and its extra bits read in one step. */
const COMBINED = 11;

export class HuffmanTable {
  /** (code length << 8) | symbol for codes of ≤ 9 bits, by the next 9 bits; 0 = longer. */
  readonly fast = new Uint16Array(1 << LOOKAHEAD);
  /** Largest code of each length (−1 when none), and where its symbols start. */
  readonly maxCode = new Int32Array(18).fill(-1);
  readonly offset = new Int32Array(17);
  readonly symbols: Uint8Array;
  /**
   * By the next 11 bits, for a code whose extra bits also fit: the symbol,
   * its signed value and the bits both take, packed as
   * ((value << 8 | symbol) << 5) | length; 0 = take the slow path.
   */
  readonly combined = new Int32Array(1 << COMBINED);

  /** `counts[i]`: how many codes have length i + 1 (16 entries). */
  constructor(counts: Uint8Array, symbols: Uint8Array) {
    this.symbols = symbols;
    let code = 0;
    let k = 0;
    for (let len = 1; len <= 16; len++) {
      const n = counts[len - 1]!;
      this.offset[len] = k - code;
      if (n > 0) {
        if (code + n > 1 << len) throw new JpegError('over-subscribed Huffman table');
        for (let i = 0; i < n; i++, code++, k++) {
          if (len <= LOOKAHEAD) {
            const shift = LOOKAHEAD - len;
            const entry = (len << 8) | symbols[k]!;
            for (let fill = code << shift, end = (code + 1) << shift; fill < end; fill++) this.fast[fill] = entry;
          }
          if (len <= COMBINED) this.addCombined(code, len, symbols[k]!);
        }
        this.maxCode[len] = code - 1;
      }
      code <<= 1;
    }
    this.maxCode[17] = 0x7fffffff; // sentinel: the slow path stops at length 17 and fails
  }

  /** Every completion of the code's extra bits, where code and bits fit in 11, is its own entry. */
  private addCombined(code: number, len: number, symbol: number): void {
    const extra = symbol & 15;
    const total = len + extra;
    if (total > COMBINED) return;
    const free = COMBINED - total;
    for (let bits = 0; bits < 1 << extra; bits++) {
      const value = extra === 0 ? 0 : bits < 1 << (extra - 1) ? bits - (1 << extra) + 1 : bits;
      const start = ((code << extra) | bits) << free;
      this.combined.fill((((value << 8) | symbol) << 5) | total, start, start + (1 << free));
    }
  }
}

/**
 * Reads bits MSB first, undoing byte stuffing (FF 00). At a marker it stops
 * and feeds zeros, as libjpeg does: a damaged scan ends in grey, never in a
 * read past the buffer, and the caller's block count bounds the work.
 */
export class BitReader {
  private buf = 0;
  private count = 0;
  /** The marker code the reader stopped at (−1 while inside entropy data). */
  marker = -1;

  constructor(
    private readonly data: Uint8Array,
    public pos: number,
  ) {}

  private fill(): void {
    const data = this.data;
    while (this.count <= 24) {
      let byte = 0;
      if (this.marker < 0 && this.pos < data.length) {
        byte = data[this.pos]!;
        if (byte === 0xff) {
          const next = this.pos + 1 < data.length ? data[this.pos + 1]! : 0xd9;
          if (next === 0) this.pos += 2;
          else {
            this.marker = next;
            byte = 0;
          }
        } else this.pos++;
      }
      this.buf = (this.buf << 8) | byte;
      this.count += 8;
    }
  }

  decode(table: HuffmanTable): number {
    if (this.count < 16) this.fill();
    const entry = table.fast[(this.buf >>> (this.count - LOOKAHEAD)) & 0x1ff]!;
    if (entry !== 0) {
      this.count -= entry >> 8;
      return entry & 0xff;
    }
    let len = LOOKAHEAD + 1;
    let code = (this.buf >>> (this.count - len)) & ((1 << len) - 1);
    while (code > table.maxCode[len]!) {
      len++;
      code = (this.buf >>> (this.count - len)) & ((1 << len) - 1);
    }
    if (len > 16) throw new JpegError('invalid Huffman code');
    this.count -= len;
    return table.symbols[table.offset[len]! + code]!;
  }

  /**
   * A symbol and the signed value of its low-nibble count of extra bits,
   * as (value << 8) | symbol: for AC tables run, size and coefficient at once,
   * for DC tables the difference category and the difference.
   */
  decodeValue(table: HuffmanTable): number {
    if (this.count < 16) this.fill();
    const entry = table.combined[(this.buf >>> (this.count - COMBINED)) & 0x7ff]!;
    if (entry !== 0) {
      this.count -= entry & 31;
      return entry >> 5;
    }
    const symbol = this.decode(table);
    return (this.signed(symbol & 15) << 8) | symbol;
  }

  /** One raw bit (refinement scans read one per non-zero coefficient). */
  bit(): number {
    if (this.count === 0) this.fill();
    return (this.buf >>> --this.count) & 1;
  }

  /** `n` (0–16) raw bits. */
  bits(n: number): number {
    if (this.count < n) this.fill();
    this.count -= n;
    return (this.buf >>> this.count) & ((1 << n) - 1);
  }

  /** `n` bits read as a signed magnitude category (F.2.2.1 EXTEND). */
  signed(n: number): number {
    if (n === 0) return 0;
    const v = this.bits(n);
    return v < 1 << (n - 1) ? v - (1 << n) + 1 : v;
  }

  /**
   * At a restart interval: drop the partial byte and step over the RSTn
   * marker. A missing marker is tolerated (the scan decodes on, as libjpeg).
   */
  restart(): void {
    this.buf = 0;
    this.count = 0;
    if (this.marker >= 0xd0 && this.marker <= 0xd7) this.pos += 2;
    else if (this.marker < 0) {
      const d = this.data;
      // Skip to the next marker if the stream has trailing bits before it.
      while (this.pos + 1 < d.length && !(d[this.pos] === 0xff && d[this.pos + 1] !== 0)) this.pos++;
      if (this.pos + 1 < d.length && d[this.pos + 1]! >= 0xd0 && d[this.pos + 1]! <= 0xd7) this.pos += 2;
    }
    this.marker = -1;
  }

  /** Position of the marker ending this scan (skips what is left of it). */
  end(): number {
    const d = this.data;
    let p = this.pos;
    while (p + 1 < d.length && !(d[p] === 0xff && d[p + 1] !== 0 && !(d[p + 1]! >= 0xd0 && d[p + 1]! <= 0xd7))) p++;
    return p;
  }
}
