import sharp from 'sharp';
import { floodJson } from '../lib/body-flood.ts';
import { type HealthzProbe, rssBytes, startHealthzProbe } from '../lib/healthz-probe.ts';
import { multipart, must, type RawResponse, send } from '../lib/http.ts';
import { nodeServer, registerOwner } from '../lib/stack.ts';
import { normalBehindBombs } from '../variant-queue.ts';
import type { Log, ReliabilityConfig, Section } from './step.ts';

const bombs = await import('../../../test/support/decode-bombs.ts');
const images = await import('../../../test/support/images.ts');

/** The decoding goals, checked per input. */
export const DECODE_GOALS = { answerMs: 2000, healthzMs: 100, rssGrowthBytes: 50 * 2 ** 20, queueUnderBombMs: 3000 };
const MiB = 2 ** 20;

/**
 * Step 6: hostile input that is cheap to send and costly to take in, against
 * the real Node server with its defaults (SQLite, a local directory, 10 MiB
 * uploads): decode bombs (uploads, and variants of what was stored), a
 * stampede of first requests for one variant, and JSON body floods. For
 * each: the answer, its time (an upload and its variant: both), the slowest
 * /healthz while it ran (asked from another process) and the server's RSS
 * after it. The bombs are test/support/decode-bombs.ts, as in `npm test`.
 */
export interface DecodeRow {
  kind: string;
  name: string;
  status: number;
  error: string | undefined;
  ms: number;
  /** When the row has its own goal (the variant queue under a bomb). */
  goalMs?: number;
  healthzMs: number;
  healthzFailures: number;
  rss: number | null;
}

export interface DecodeResult {
  rows: DecodeRow[];
  rssStart: number | null;
  rssEnd: number | null;
  alive: boolean;
}

/** An answer of any of the inputs: a response, or a flood's status; `ms`: the part that is timed, when not all of it. */
type Outcome = { status: number; error?: string | undefined; ms?: number; goalMs?: number };

export async function decodeStep(cfg: ReliabilityConfig, log: Log): Promise<DecodeResult> {
  const server = await nodeServer('Node + SQLite (decode bombs, body floods)');
  let probe: HealthzProbe | undefined;
  try {
    const token = await registerOwner(server);
    const { article } = await must<{ article: { id: string } }>(server.url, 'POST', '/v1/articles', 201, {
      token,
      body: { title: 'Bombs' },
    });
    const upload = (bytes: Uint8Array) => {
      const m = multipart(bytes, { filename: 'x.bin', type: 'application/octet-stream' });
      return send(server.url, {
        method: 'POST',
        path: `/v1/articles/${article.id}/images`,
        headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType },
        body: m.body,
        timeoutMs: 60_000,
      });
    };
    const get = (path: string) => send(server.url, { path, timeoutMs: 60_000 });
    const urlOf = (res: RawResponse): string => JSON.parse(res.body.toString('utf8')).image.url;

    // Warm up: the render thread is started and has made a variant, so the
    // starting RSS includes it (as it would in any server that serves images).
    const warm = await upload(images.JPEG_400x300);
    await get(`${urlOf(warm)}?w=160`);
    await get(`${urlOf(warm)}?w=320&format=webp`);
    await new Promise((r) => setTimeout(r, 1000));
    probe = await startHealthzProbe(server.url);
    const rssStart = rssBytes(server.pid);

    // Every input is made before it is timed: only the server's answers count.
    const heavyPng = new Uint8Array(
      await sharp({ create: { width: 4000, height: 4000, channels: 3, background: '#3060a0' } })
        .png()
        .toBuffer(),
    );
    const storedThenVariant = (bytes: Uint8Array, query: string) => async (): Promise<Outcome> => {
      const stored = await upload(bytes);
      return stored.status === 201 ? get(`${urlOf(stored)}${query}`) : stored;
    };
    const stampede = (bytes: Uint8Array, query: string) => async (): Promise<Outcome> => {
      const stored = await upload(bytes);
      if (stored.status !== 201) return stored;
      const all = await Promise.all(Array.from({ length: 8 }, () => get(`${urlOf(stored)}${query}`)));
      return all.find((r) => r.status !== 200) ?? all[0] ?? stored;
    };
    const queueUnderBomb = (bomb: Uint8Array, normal: Uint8Array) => async (): Promise<Outcome> => {
      const [b, n] = [await upload(bomb), await upload(normal)];
      if (b.status !== 201 || n.status !== 201) return b.status !== 201 ? b : n;
      const pathOf = (res: RawResponse) => new URL(urlOf(res)).pathname;
      const run = await normalBehindBombs(server.url, pathOf(b), pathOf(n));
      log(`bomb requests: ${run.bombs.join(' ')}`);
      return { status: run.status, ms: run.ms, goalMs: DECODE_GOALS.queueUnderBombMs };
    };
    const floods = cfg.quick ? [50 * MiB] : [50 * MiB, 300 * MiB];
    const inputs: [kind: string, name: string, run: () => Promise<Outcome>][] = [
      ...uploadBombs(cfg).map(([name, make]): [string, string, () => Promise<Outcome>] => {
        const bytes = make();
        return ['upload', name, () => upload(bytes)];
      }),
      [
        'upload, variant',
        'PNG, iCCP inflating to 1 GiB; ?w=160',
        storedThenVariant(await bombs.pngAncillaryBomb('iCCP', 1024 * MiB), '?w=160'),
      ],
      [
        'upload, variant',
        'PNG, zTXt inflating to 256 MiB; ?w=160',
        storedThenVariant(await bombs.pngAncillaryBomb('zTXt', 256 * MiB), '?w=160'),
      ],
      [
        'upload, variant',
        'heavy but legal: 16 MP PNG; ?w=1920&format=webp',
        storedThenVariant(heavyPng, '?w=1920&format=webp'),
      ],
      [
        'upload, variant',
        'heavy but legal: 16 MP progressive JPEG of 63 scans; ?w=1920',
        storedThenVariant(bombs.jpegScanFlood({ width: 4000, height: 4000, scans: 63, progressive: true }), '?w=1920'),
      ],
      ['stampede', '8 concurrent first requests for one variant (16 MP PNG; ?w=960)', stampede(heavyPng, '?w=960')],
      [
        'variant queue',
        'variant queue under a bomb: a normal variant (?w=160) behind 18 bomb requests (4000×4000 16-bit interlaced PNG, 124 KB); the normal one timed',
        queueUnderBomb(await bombs.pngDepthBomb(), await smallPng()),
      ],
      ...floods.map((size): [string, string, () => Promise<Outcome>] => [
        'JSON body',
        `POST /v1/auth/register, ${size / MiB} MiB password`,
        () =>
          floodJson(server.url, {
            path: '/v1/auth/register',
            totalBytes: size,
            field: 'password',
            extra: { email: 'flood@example.com' },
          }),
      ]),
      ...floods.map((size): [string, string, () => Promise<Outcome>] => [
        'JSON body',
        `POST /v1/articles, ${size / MiB} MiB body`,
        () =>
          floodJson(server.url, {
            path: '/v1/articles',
            totalBytes: size,
            field: 'body',
            extra: { title: 'Flood' },
            token,
          }),
      ]),
    ];

    const rows: DecodeRow[] = [];
    for (const [kind, name, run] of inputs) {
      await probe.mark();
      const started = performance.now();
      let res: Outcome;
      try {
        res = await run();
      } catch (err) {
        res = { status: 0, error: String((err as Error | undefined)?.message ?? err) };
      }
      const ms = res.ms ?? performance.now() - started;
      const health = await probe.mark();
      const row: DecodeRow = {
        kind,
        name,
        status: res.status,
        error: res.error,
        ms,
        goalMs: res.goalMs,
        healthzMs: health.worstMs,
        healthzFailures: health.failures,
        rss: rssBytes(server.pid),
      };
      rows.push(row);
      log(
        `${name}: ${row.status} in ${ms.toFixed(0)} ms, /healthz worst ${health.worstMs.toFixed(0)} ms, RSS ${row.rss === null ? '?' : (row.rss / MiB).toFixed(0)} MiB`,
      );
    }
    // Memory the runs left: after a pause, as an operator would look at it.
    await new Promise((r) => setTimeout(r, 3000));
    const rssEnd = rssBytes(server.pid);
    const alive = (await send(server.url, { path: '/healthz' })).status === 200;
    return { rows, rssStart, rssEnd, alive };
  } finally {
    probe?.stop();
    await server.stop();
  }
}

/** Generated bombs to upload: each must be refused from its structure, quickly. */
function uploadBombs(cfg: ReliabilityConfig): [name: string, make: () => Uint8Array][] {
  return [
    ['JPEG, 1024×1024 frame and 4,000 empty scans (64 KB)', () => bombs.jpegScanFlood({ scans: 4000 })],
    [
      'JPEG, 4000×4000 frame and 600,000 empty scans (10 MB)',
      () => bombs.jpegScanFlood({ width: 4000, height: 4000, scans: 600_000 }),
    ],
    ['progressive JPEG, 4,000 scans', () => bombs.jpegScanFlood({ scans: 4000, progressive: true })],
    ['JPEG, 100,000 Huffman tables', () => bombs.jpegMarkerFlood(100_000)],
    ['WebP, 1×1 canvas over a 16383×16383 VP8 bitstream', () => bombs.webpCanvasLie()],
    ['WebP, 1×1 canvas over a 16383×16383 VP8L bitstream', () => bombs.webpCanvasLie({ lossless: true })],
    [
      'WebP animation, 9999×9999 frame on a 1×1 canvas',
      () => bombs.webpAnimation({ canvas: [1, 1], frame: [9999, 9999] }),
    ],
    ['PNG, 100,000 ancillary chunks', () => bombs.pngChunkFlood(100_000)],
    ['PNG, 100,000 IDAT chunks', () => bombs.pngChunkFlood(100_000, 'idat')],
    [`GIF, ${cfg.quick ? '10,000' : '100,000'} frames`, () => bombs.gifFrameFlood(cfg.quick ? 10_000 : 100_000)],
    ['GIF, 65535×65535 frame on a 1×1 screen', () => bombs.gifFrameOutsideScreen()],
  ];
}

/** A small photo-sized PNG of its own (its bytes are no other image's). */
const smallPng = async () =>
  new Uint8Array(
    await sharp({ create: { width: 400, height: 300, channels: 3, background: '#a03060' } })
      .png()
      .toBuffer(),
  );

const mib = (b: number | null | undefined) => (b === null || b === undefined ? '?' : (b / MiB).toFixed(0));

export function decodeSection(r: DecodeResult): Section {
  const g = DECODE_GOALS;
  const lines = [
    `Goals: every answer within ${g.answerMs / 1000} s (the variant queue under a bomb: the normal variant within ${g.queueUnderBombMs / 1000} s), \`/healthz\` never slower than ${g.healthzMs} ms while an input is handled (asked back to back from a separate process), no 5xx, and the server's RSS back within ${g.rssGrowthBytes / MiB} MB of where it started. The server: the built bundle with its defaults (SQLite, local directory, 10 MiB uploads, render threads). RSS at the start (after one variant was made, so the render thread is up): ${mib(r.rssStart)} MiB.`,
    '',
    '| kind | input | answer | ms | slowest /healthz ms | RSS after (MiB) | goals |',
    '|---|---|---|---|---|---|---|',
  ];
  let failures = 0;
  for (const row of r.rows) {
    const misses: string[] = [];
    if (row.status === 0 || row.status >= 500) misses.push(row.status === 0 ? 'no answer' : '5xx');
    if (row.ms >= (row.goalMs ?? g.answerMs)) misses.push('slow answer');
    if (row.healthzMs > g.healthzMs || row.healthzFailures) misses.push('/healthz delayed');
    failures += misses.length ? 1 : 0;
    lines.push(
      `| ${row.kind} | ${row.name} | ${row.status || row.error} | ${row.ms.toFixed(0)} | ${row.healthzMs.toFixed(0)} | ${mib(row.rss)} | ${misses.length ? `**${misses.join(', ')}**` : 'met'} |`,
    );
  }
  const growth = r.rssStart === null || r.rssEnd === null ? null : r.rssEnd - r.rssStart;
  const rssMet = growth !== null && growth <= g.rssGrowthBytes;
  if (!rssMet) failures++;
  if (!r.alive) failures++;
  lines.push(
    '',
    `RSS 3 s after the last input: ${mib(r.rssEnd)} MiB, ${growth === null ? 'unknown' : `${growth >= 0 ? '+' : ''}${mib(growth)} MiB`} against the start: **${rssMet ? 'met' : 'NOT met'}**. Server alive afterwards: **${r.alive ? 'yes' : 'NO'}**.`,
  );
  return { title: '6. Decode bombs and body floods', body: lines.join('\n'), failures };
}
