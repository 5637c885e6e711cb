import autocannon from 'autocannon';
import { uploadPng } from './lib/fixtures.ts';
import { multipart, must, send } from './lib/http.ts';

/**
 * Step 3: mixed traffic with autocannon. Every connection cycles through ten
 * requests: nine public reads (lists, single articles, sites, authors, an
 * article's images, an image file) and one authenticated write, which
 * alternates between creating an article and uploading an image. Every 201
 * is remembered and read back afterwards: a write the server acknowledged
 * and then lost would show up there.
 */

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A valid PNG made unique by bytes after IEND (kept and served as they are), so a mix-up of two uploads would show. */
const uniquePng = (n: number) => Buffer.concat([PNG_1x1, Buffer.from(`reliability-${n}`)]);

/** Content to read: online articles, one with images. */
export interface LoadSeed {
  ids: string[];
  imagePath: string;
  uploadTarget: string;
}

export async function seedForLoad(origin: string, token: string, { articles = 40 } = {}): Promise<LoadSeed> {
  const ids: string[] = [];
  for (let i = 0; i < articles; i++) {
    const a = (
      await must<{ article: { id: string } }>(origin, 'POST', '/v1/articles', 201, {
        token,
        body: { title: `Load ${i}`, body: `Paragraph ${i}\n`.repeat(20) },
      })
    ).article;
    await must(origin, 'POST', `/v1/articles/${a.id}/publish`, 200, { token });
    ids.push(a.id);
  }
  const [first, second] = ids;
  if (!first || !second) throw new Error('seedForLoad needs at least two articles');
  const up = await uploadPng(origin, token, first);
  if (up.status !== 201) throw new Error(`seed upload: ${up.status}`);
  const { image }: { image: { url: string } } = JSON.parse(up.body.toString('utf8'));
  return { ids, imagePath: new URL(image.url, origin).pathname, uploadTarget: second };
}

/** What a write remembers between its request and its answer (autocannon's per-cycle context). */
type Pending = { kind: 'article'; title: string } | { kind: 'image'; bytes: number; tag: string };
type WriteContext = { pending?: Pending };

interface Created {
  articles: { id: string; title: string }[];
  images: { url: string; bytes: number; tag: string }[];
  unparsable?: number;
}

export interface MixedLoadResult {
  requests: number;
  seconds: number;
  rps: number;
  byStatus: Record<string, number | undefined>;
  writeStatuses: Record<number, number>;
  errors: number;
  timeouts: number;
  fivexx: number;
  latency: { p50: number; p90: number; p99: number; max: number };
  created: { articles: number; images: number; unparsable: number };
  lost: string[];
}

export async function mixedLoad(
  origin: string,
  token: string,
  seed: LoadSeed,
  { connections, seconds }: { connections: number; seconds: number },
): Promise<MixedLoadResult> {
  const created: Created = { articles: [], images: [] };
  const writeStatuses: Record<number, number> = {};
  let n = 0;
  const pick = () => seed.ids[Math.floor(Math.random() * seed.ids.length)];
  const read = (path: string): autocannon.Request => ({ method: 'GET', path });
  const randomArticle: autocannon.Request = {
    method: 'GET',
    path: '/',
    setupRequest: (req) => ({ ...req, path: `/v1/articles/${pick()}` }),
  };
  const write: autocannon.Request = {
    method: 'POST',
    path: '/v1/articles',
    setupRequest: (req, ctx) => {
      const context = ctx as WriteContext;
      // autocannon starts each cycle with a fresh context, so the alternation counts globally.
      const i = ++n;
      if (i % 2) {
        const title = `written ${i}`;
        context.pending = { kind: 'article', title };
        return {
          ...req,
          path: '/v1/articles',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ title, body: `body ${i}` }),
        };
      }
      const bytes = uniquePng(i);
      const m = multipart(bytes, { filename: `load-${i}.png`, type: 'image/png' });
      context.pending = { kind: 'image', bytes: bytes.length, tag: `reliability-${i}` };
      return {
        ...req,
        path: `/v1/articles/${seed.uploadTarget}/images`,
        headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType },
        body: m.body,
      };
    },
    onResponse: (status, body, ctx) => {
      writeStatuses[status] = (writeStatuses[status] ?? 0) + 1;
      if (status !== 201) return;
      const p = (ctx as WriteContext).pending;
      if (!p) return;
      try {
        const json = JSON.parse(body);
        if (p.kind === 'article') created.articles.push({ id: json.article.id, title: p.title });
        else created.images.push({ url: json.image.url, bytes: p.bytes, tag: p.tag });
      } catch {
        created.unparsable = (created.unparsable ?? 0) + 1;
      }
    },
  };
  const requests = [
    read('/v1/articles?limit=20'),
    randomArticle,
    read('/v1/sites'),
    randomArticle,
    read('/v1/authors'),
    read(`/v1/articles/${seed.ids[0]}/images`),
    read(seed.imagePath),
    randomArticle,
    read('/v1/articles?limit=100'),
    write,
  ];
  const r = await new Promise<autocannon.Result>((resolve, reject) =>
    autocannon({ url: origin, connections, duration: seconds, requests, timeout: 10 }, (err, res) =>
      err ? reject(err) : resolve(res),
    ),
  );
  const byStatus = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([s, v]) => [s, v.count]));
  const lost = await readBack(origin, token, created);
  return {
    requests: r.requests.total,
    seconds: r.duration,
    rps: r.requests.average,
    byStatus,
    writeStatuses,
    errors: r.errors,
    timeouts: r.timeouts,
    fivexx: r['5xx'],
    latency: { p50: r.latency.p50, p90: r.latency.p90, p99: r.latency.p99, max: r.latency.max },
    created: { articles: created.articles.length, images: created.images.length, unparsable: created.unparsable ?? 0 },
    lost,
  };
}

/** Every acknowledged write, read back: the article with its title, the image byte for byte. */
async function readBack(origin: string, token: string, created: Created): Promise<string[]> {
  const lost: string[] = [];
  for (const a of created.articles) {
    const res = await send(origin, { path: `/v1/articles/${a.id}`, headers: { authorization: `Bearer ${token}` } });
    if (res.status !== 200 || JSON.parse(res.body.toString('utf8')).article?.title !== a.title)
      lost.push(`article ${a.id}: ${res.status}`);
  }
  for (const img of created.images) {
    const res = await send(origin, { path: new URL(img.url, origin).pathname });
    if (res.status !== 200 || res.body.length !== img.bytes || !res.body.toString('latin1').endsWith(img.tag))
      lost.push(`image ${img.url}: ${res.status}, ${res.body.length} bytes`);
  }
  return lost;
}
