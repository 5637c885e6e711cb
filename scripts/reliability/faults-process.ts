import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { multipart, must, send } from './lib/http.ts';
import { type NodeServer, nodeServer, registerOwner, tempDir } from './lib/stack.ts';

/** Step 4c–4d: kill -9 mid-upload, a full disk (4e, SMTP down, is faults-smtp.ts). */

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const bigPng = (n: number, size: number) => Buffer.concat([PNG_1x1, Buffer.alloc(size, n % 251)]);
const sha256 = (b: Uint8Array) => createHash('sha256').update(b).digest('hex');

/** Every image row of the article, each served whole and matching its recorded hash. */
interface ImageRow {
  id: string;
  filename: string;
  url: string;
  bytes: number;
  sha256: string;
  createdAt: string;
}

async function checkImages(
  origin: string,
  token: string,
  articleId: string,
): Promise<{ rows: ImageRow[]; broken: string[] }> {
  const { items: rows } = await must<{ items: ImageRow[] }>(
    origin,
    'GET',
    `/v1/articles/${articleId}/images?limit=100`,
    200,
    { token },
  );
  const broken: string[] = [];
  for (const row of rows) {
    const res = await send(origin, { path: new URL(row.url, origin).pathname });
    if (res.status !== 200 || res.body.length !== row.bytes || sha256(res.body) !== row.sha256)
      broken.push(`${row.filename}: ${res.status}, ${res.body.length}/${row.bytes} bytes`);
  }
  return { rows, broken };
}

/** When to call `kill`: after a fraction of the body was sent, or some time after all of it. */
type KillPoint = { fraction: number; afterMs?: undefined } | { afterMs: number; fraction?: undefined };

/** Sends an upload in 64 KiB chunks; `killAt.kill` is called at the point it names (never without one). */
function streamingUpload(
  origin: string,
  token: string,
  articleId: string,
  bytes: Uint8Array,
  killAt: Partial<KillPoint> & { kill?: () => void },
): Promise<{ status: number; body: string }> {
  const kill = killAt.kill ?? (() => {});
  const m = multipart(bytes, { filename: 'big.png', type: 'image/png' });
  const url = new URL(origin);
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        method: 'POST',
        path: `/v1/articles/${articleId}/images`,
        headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType, 'content-length': m.body.length },
      },
      (res) => {
        let body = '';
        res.on('data', (d: Buffer) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        res.on('error', () => resolve({ status: 0, body: '' }));
      },
    );
    req.on('error', () => resolve({ status: 0, body: '' }));
    let sent = 0;
    const next = () => {
      if (killAt.fraction !== undefined && sent >= m.body.length * killAt.fraction) kill();
      if (sent >= m.body.length) {
        req.end();
        if (killAt.afterMs !== undefined) setTimeout(kill, killAt.afterMs);
        return;
      }
      const chunk = m.body.subarray(sent, sent + 65536);
      sent += chunk.length;
      if (req.write(chunk)) setImmediate(next);
      else req.once('drain', next);
    };
    next();
  });
}

export interface KillRound {
  point: string;
  answer: number;
  rows: number;
  broken: string[];
  lostAcknowledged: string | null;
  filesOnDisk: number;
}

export async function killDuringUpload({
  quick,
}: {
  quick: boolean;
}): Promise<{ uploadMs: number; rounds: KillRound[] }> {
  const dir = tempDir('kill');
  const env = {
    JWT_SECRET: 'kill-9-reliability-secret-0123456789abcdef',
    MAX_UPLOAD_BYTES: String(16 * 1024 * 1024),
    DATABASE_URL: `sqlite:${path.join(dir, 'cms.db')}`,
    STORAGE_URL: `file:${path.join(dir, 'uploads')}`,
  };
  let server = await nodeServer('Node + SQLite (kill -9)', { dir, env });
  const token = await registerOwner(server);
  const { article } = await must<{ article: { id: string } }>(server.url, 'POST', '/v1/articles', 201, {
    token,
    body: { title: 'kill' },
  });
  // How long the server takes from the end of the body to its answer, so the kills can land
  // while it parses, hashes, writes the file and inserts the row, and just after.
  const t0 = performance.now();
  const whole = await streamingUpload(server.url, token, article.id, bigPng(255, 6 * 1024 * 1024), {});
  if (whole.status !== 201) throw new Error(`uninterrupted upload: ${whole.status} ${whole.body}`);
  const uploadMs = performance.now() - t0;
  const fractions = quick ? [0.5, 0.9, 1.2] : [0.3, 0.5, 0.7, 0.8, 0.9, 1.0, 1.1, 1.3];
  const points: KillPoint[] = [{ fraction: 0.5 }, ...fractions.map((f) => ({ afterMs: Math.round(uploadMs * f) }))];
  const rounds: KillRound[] = [];
  for (const [i, point] of points.entries()) {
    const bytes = bigPng(i, 6 * 1024 * 1024);
    const { pid } = server;
    let killed = false;
    const kill = () => {
      if (killed || pid === undefined) return;
      killed = true;
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // already gone
      }
    };
    const killAt = { ...point, kill };
    const answer = await streamingUpload(server.url, token, article.id, bytes, killAt);
    await server.stop();
    server = await nodeServer('Node + SQLite (kill -9, restarted)', { dir, env });
    const { rows, broken } = await checkImages(server.url, token, article.id);
    const acknowledged: string | null = answer.status === 201 ? JSON.parse(answer.body).image.filename : null;
    rows.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const files = readdirSync(path.join(dir, 'uploads'), { recursive: true, encoding: 'utf8' }).filter(
      (f) => !f.includes('variants'),
    );
    rounds.push({
      point:
        point.fraction !== undefined
          ? `after ${point.fraction * 100}% of the body`
          : `${point.afterMs} ms after the body`,
      answer: answer.status,
      rows: rows.length,
      broken,
      lostAcknowledged: acknowledged && !rows.some((r) => r.filename === acknowledged) ? acknowledged : null,
      filesOnDisk: files.length,
    });
  }
  await server.stop();
  return { uploadMs, rounds };
}

/** A tmpfs of a few MiB for the data directory; null when mounting is not allowed here. */
function mountTmpfs(dir: string, size: string): (() => void) | { error: string } {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return () => {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
    };
  } catch (err) {
    const e = err as Error & { stderr?: Buffer };
    return { error: String(e.stderr ?? e.message).trim() };
  }
}

/** The activity log on the full disk: its size as the API and the file say, and what writes answered. */
export interface DiskActivity {
  status: number;
  sizeBytes?: number;
  maxBytes?: number;
  fileBytes: number | null;
  configuredMax: number;
  writesWhileFull: Record<number, number>;
}

export type DiskFull =
  | { ran: false; reason: string }
  | {
      ran: true;
      lastLog: string | null;
      activity: DiskActivity;
      uploads: { status: number; body: string }[];
      bigWrite: { status: number; body: string };
      rows: number;
      broken: string[];
      readWhileFull: number;
      afterFreeing: number;
      alive: boolean;
    };

export async function diskFull(): Promise<DiskFull> {
  const dir = tempDir('diskfull');
  const unmount = mountTmpfs(dir, '6m');
  if (typeof unmount !== 'function') return { ran: false, reason: `mount -t tmpfs failed: ${unmount.error}` };
  let server: NodeServer | undefined;
  try {
    const activityMax = 16 * 1024;
    server = await nodeServer('Node + SQLite on a 6 MiB tmpfs', {
      dir,
      // The server's own output goes to the same full disk, as with `npm start > data/server.log`.
      env: {
        MAX_UPLOAD_BYTES: String(2 * 1024 * 1024),
        ACTIVITY_LOG_FILE: path.join(dir, 'activity.ndjson'),
        ACTIVITY_LOG_MAX_BYTES: String(activityMax),
      },
    });
    const token = await registerOwner(server);
    const { article } = await must<{ article: { id: string } }>(server.url, 'POST', '/v1/articles', 201, {
      token,
      body: { title: 'disk' },
    });
    const uploads = [];
    for (let i = 0; i < 12; i++) {
      const m = multipart(bigPng(i + 1, 1024 * 1024 - 200), { filename: 'fill.png', type: 'image/png' });
      const res = await send(server.url, {
        method: 'POST',
        path: `/v1/articles/${article.id}/images`,
        headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType },
        body: m.body,
      });
      uploads.push({ status: res.status, body: res.status === 201 ? '' : res.body.toString('utf8').slice(0, 200) });
    }
    const write = await send(server.url, {
      method: 'POST',
      path: '/v1/articles',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'x', body: 'y'.repeat(3 * 1024 * 1024) }),
    });
    const { rows, broken } = await checkImages(server.url, token, article.id);
    const read = await send(server.url, {
      path: `/v1/articles/${article.id}`,
      headers: { authorization: `Bearer ${token}` },
    });
    // Free space through the API, then upload again.
    for (const r of rows.slice(0, 2))
      await send(server.url, {
        method: 'DELETE',
        path: `/v1/media/${r.id}`,
        headers: { authorization: `Bearer ${token}` },
      });
    // Fill what is left to the last byte, then write: each article write is also an activity entry.
    const filler = path.join(dir, 'filler');
    try {
      for (;;) appendFileSync(filler, Buffer.alloc(64 * 1024));
    } catch {
      // ENOSPC: full
    }
    try {
      for (;;) appendFileSync(filler, Buffer.alloc(512));
    } catch {
      // to the last block
    }
    const activityStatuses: Record<number, number> = {};
    for (let i = 0; i < 40; i++) {
      const r = await send(server.url, {
        method: 'POST',
        path: '/v1/articles',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title: `while full ${i}` }),
      });
      activityStatuses[r.status] = (activityStatuses[r.status] ?? 0) + 1;
    }
    const summary = await send(server.url, {
      path: '/v1/activity/summary',
      headers: { authorization: `Bearer ${token}` },
    });
    let sizes: Pick<DiskActivity, 'sizeBytes' | 'maxBytes'> = {};
    try {
      const j = JSON.parse(summary.body.toString('utf8'));
      const sum = j.summary ?? j;
      sizes = { sizeBytes: sum.sizeBytes, maxBytes: sum.maxBytes };
    } catch {
      // reported by status
    }
    let fileBytes: number | null = null;
    try {
      fileBytes = statSync(path.join(dir, 'activity.ndjson')).size;
    } catch {
      // no file
    }
    const activity: DiskActivity = {
      status: summary.status,
      ...sizes,
      fileBytes,
      configuredMax: activityMax,
      writesWhileFull: activityStatuses,
    };
    rmSync(filler, { force: true });
    const m = multipart(bigPng(99, 512 * 1024), { filename: 'after.png', type: 'image/png' });
    const after = await send(server.url, {
      method: 'POST',
      path: `/v1/articles/${article.id}/images`,
      headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType },
      body: m.body,
    });
    const alive = (await send(server.url, { path: '/healthz' })).status === 200;
    const lastLog = alive
      ? null
      : server
          .log()
          .split('\n')
          .filter((l) => !l.startsWith('mail'))
          .slice(-10)
          .join('\n');
    return {
      ran: true,
      lastLog,
      activity,
      uploads,
      bigWrite: { status: write.status, body: write.body.toString('utf8').slice(0, 200) },
      rows: rows.length,
      broken,
      readWhileFull: read.status,
      afterFreeing: after.status,
      alive,
    };
  } finally {
    await server?.stop();
    unmount();
  }
}
