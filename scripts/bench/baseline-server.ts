import { readFileSync } from 'node:fs';
import { Hono } from 'hono';
import { serveBenchApp } from './lib/serve-child.ts';

/**
 * The benchmark's baseline: a bare Hono app on @hono/node-server, started the
 * same way as the real server (a child `node` process, 127.0.0.1, PORT from
 * the environment). It answers every GET with one fixed JSON document — the
 * file named by BASELINE_DOC, which run.ts fills with a real article response
 * so that both servers serialise and send the same number of bytes. Nothing
 * else: no middleware, no database, no logging.
 *
 * BASELINE_STORED (optional) names a JSON file of `{ path: text }`: those
 * paths answer their text as stored bytes, as the read cache does — the
 * floor of two cached answers that differ only in their bytes (run.ts: the
 * list with and without its bylines).
 */
const docFile = process.env.BASELINE_DOC;
if (!docFile) throw new Error('BASELINE_DOC is not set');
const doc: unknown = JSON.parse(readFileSync(docFile, 'utf8'));
const storedFile = process.env.BASELINE_STORED;
const stored = new Map<string, string>(
  storedFile ? Object.entries(JSON.parse(readFileSync(storedFile, 'utf8')) as Record<string, string>) : [],
);

const app = new Hono();
for (const [p, text] of stored) app.get(p, (c) => c.body(text, 200, { 'Content-Type': 'application/json' }));
app.get('*', (c) => c.json(doc));

serveBenchApp(app);
