import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { get, getJson, type LoadPath } from './load.ts';

/** The parts of an article answer the benchmark checks. */
interface OneArticle {
  article?: { id: string; status: string; slug: string };
}

/**
 * The single reads of the throughput rounds: 200 online articles spread
 * over the table, each read once and checked, and their slugs; their conditional requests
 * when public reads carry an ETag (the 304 row; checked to answer 304); and the baseline's document, the median-sized answer among
 * them, written to `baseline.json` in `tmp`.
 */
export async function sampleReads(
  origin: string,
  onlineIds: readonly string[],
  tmp: string,
  log: (msg: string) => void,
): Promise<{ sampleIds: string[]; sampleSlugs: string[]; notModified: LoadPath[]; docFile: string }> {
  const n = Math.min(200, onlineIds.length);
  const sampleIds = Array.from({ length: n }, (_, i) => onlineIds[Math.floor((i * onlineIds.length) / n)]!);
  const answers: { json: OneArticle; bytes: number }[] = [];
  const sampleSlugs: string[] = [];
  const conditional: LoadPath[] = [];
  for (const id of sampleIds) {
    const { json, bytes, etag } = await getJson<OneArticle>(origin, `/v1/articles/${id}`);
    if (json.article?.id !== id || json.article.status !== 'online')
      throw new Error(`GET /v1/articles/${id}: unexpected answer`);
    answers.push({ json, bytes });
    sampleSlugs.push(json.article.slug);
    if (etag) conditional.push({ path: `/v1/articles/${id}`, headers: { 'If-None-Match': etag } });
  }
  const notModified = conditional.length === sampleIds.length ? conditional : [];
  if (notModified.length > 0) {
    const first = notModified[0] as Exclude<LoadPath, string>;
    const res = await get(origin, first.path, first.headers);
    if (res.status !== 304) throw new Error(`GET ${first.path} with If-None-Match: ${res.status}, not 304`);
  } else log('public reads carry no ETag: the 304 row is left out');
  // The read by slug (the uncached by-slug rows) answers the same article.
  const bySlug = await getJson<OneArticle>(origin, `/v1/articles/slug/${sampleSlugs[0]}`);
  if (bySlug.json.article?.id !== sampleIds[0])
    throw new Error(`GET /v1/articles/slug/${sampleSlugs[0]}: unexpected answer`);
  answers.sort((a, b) => a.bytes - b.bytes);
  const median = answers[Math.floor(answers.length / 2)];
  if (!median) throw new Error('no online article to read');
  const docFile = path.join(tmp, 'baseline.json');
  writeFileSync(docFile, JSON.stringify(median.json));
  return { sampleIds, sampleSlugs, notModified, docFile };
}

/**
 * The baseline's stored answers (baseline-server.ts, BASELINE_STORED): each
 * of `paths` read once from `origin`, checked, and written as `{ '/stored/<key>': text }`
 * to `stored.json` in `tmp`. The baseline answers those bytes with nothing
 * else to do: the floor of a cached answer of that size.
 */
export async function storedAnswers<K extends string>(
  origin: string,
  paths: Record<K, string>,
  tmp: string,
): Promise<{ storedFile: string; storedPaths: Record<K, string>; bytes: Record<K, number> }> {
  const text: Record<string, string> = {};
  const storedPaths = {} as Record<K, string>;
  const bytes = {} as Record<K, number>;
  for (const key of Object.keys(paths) as K[]) {
    const res = await get(origin, paths[key]);
    if (res.status !== 200) throw new Error(`GET ${paths[key]}: ${res.status}, not 200`);
    storedPaths[key] = `/stored/${key}`;
    text[storedPaths[key]] = res.body;
    bytes[key] = Buffer.byteLength(res.body);
  }
  const storedFile = path.join(tmp, 'stored.json');
  writeFileSync(storedFile, JSON.stringify(text));
  return { storedFile, storedPaths, bytes };
}
