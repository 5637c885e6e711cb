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
 */
const docFile = process.env.BASELINE_DOC;
if (!docFile) throw new Error('BASELINE_DOC is not set');
const doc: unknown = JSON.parse(readFileSync(docFile, 'utf8'));

const app = new Hono();
app.get('*', (c) => c.json(doc));

serveBenchApp(app);
