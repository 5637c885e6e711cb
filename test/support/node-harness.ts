import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { buildNode, HTML_RENDER_WORKER_BUNDLE, RENDER_WORKER_BUNDLE } from '../../scripts/build-node.ts';
import { parseSettings } from '../../worker/src/config/settings.js';
import { buildNodeDeps } from '../../worker/src/wiring/node.js';
import { type ApiHarness, harnessFor } from './api-harness.js';
import { pooledDatabase } from './migrated-databases.js';
import { appAnswerChecker } from './openapi-answers.js';
import { REPO_ROOT } from './paths.js';
import { startS3rver } from './s3rver.js';
import type { FreshDatabase } from './server-databases.js';
import { parseMail, type SmtpCatcher, startSmtpCatcher } from './smtp-catcher.js';
import type { TestDatabase } from './test-database.js';
import type { WebhookReceiver } from './webhook-receiver.js';
import { type ReceiverServer, startReceiver } from './webhook-receiver.node.js';

export const NODE_TEST_JWT_SECRET = 'node-test-secret-0123456789abcdef0123';
export const NODE_MAX_UPLOAD_BYTES = 64 * 1024;

export type NodeBackend = {
  db: 'sqlite' | 'postgres' | 'mysql';
  storage: 'local' | 's3';
  mail?: 'log' | 'smtp';
  /** More settings, by their environment names (e.g. ACTIVITY_LOG_MAX_BYTES). */
  settings?: Record<string, string>;
};

/** With `mail: 'smtp'`, e-mails go through worker-mailer to a real SMTP catcher, which tests may stop. */
export type NodeHarness = ApiHarness & { smtp?: SmtpCatcher };

const textOf = (raw: string) =>
  parseMail(raw)
    .parts.filter((p) => (p.headers.get('content-type') ?? '').startsWith('text/plain'))
    .map((p) => p.body)
    .join('\n');

/**
 * The render threads the Node bundle ships (built when their sources changed, once per test process):
 * a harness's first render starts its threads, and a thread compiling the TypeScript sources took
 * 3 times the CPU of the bundled one (the body renderer's: about 370 ms against 125), and an API
 * suite starts some 50. Tests that wire the app themselves, and test/node/render-pool.test.ts, still
 * start threads from the sources.
 */
let built: Promise<unknown> | undefined;
async function bundledThreads(): Promise<{ render: URL; html: URL }> {
  built ??= buildNode();
  await built;
  return { render: pathToFileURL(RENDER_WORKER_BUNDLE), html: pathToFileURL(HTML_RENDER_WORKER_BUNDLE) };
}

/** The Node wiring with real adapters: an empty database and a fresh store per harness. */
export async function nodeHarness(backend: NodeBackend): Promise<NodeHarness> {
  const dir = await mkdtemp(path.join(tmpdir(), 'cms-api-'));
  const cleanups: (() => Promise<unknown>)[] = [() => rm(dir, { recursive: true, force: true })];
  try {
    let server: FreshDatabase | undefined;
    if (backend.db !== 'sqlite') server = await pooledDatabase(backend.db);
    if (server) cleanups.unshift(server.drop);
    const raw: Record<string, string> = {
      DATABASE_URL: server?.url ?? `sqlite:${path.join(dir, 'cms.db')}`,
      STORAGE_URL: `file:${path.join(dir, 'uploads')}`,
      ACTIVITY_LOG_FILE: path.join(dir, 'activity.ndjson'),
      JWT_SECRET: NODE_TEST_JWT_SECRET,
      MAX_UPLOAD_BYTES: String(NODE_MAX_UPLOAD_BYTES),
      // Generous on a loaded CI machine; test/node/db-outage.test.ts proves the deadline itself.
      DATABASE_TIMEOUT_MS: '10000',
    };
    Object.assign(raw, backend.settings);
    if (backend.storage === 's3') {
      const s3 = await startS3rver();
      cleanups.unshift(s3.stop);
      raw.STORAGE_URL = `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}&forcePathStyle=true`;
      raw.S3_ACCESS_KEY_ID = s3.accessKeyId;
      raw.S3_SECRET_ACCESS_KEY = s3.secretAccessKey;
    }
    let smtp: SmtpCatcher | undefined;
    if (backend.mail === 'smtp') {
      smtp = await startSmtpCatcher();
      cleanups.unshift(smtp.stop);
      raw.SMTP_URL = `smtp://127.0.0.1:${smtp.port}`;
    }
    const settings = parseSettings(raw, 'node');
    const { deps, close } = await buildNodeDeps(settings, {
      appRoot: REPO_ROOT,
      jwtSecret: NODE_TEST_JWT_SECRET,
      writeLog: () => {},
      threadEntries: await bundledThreads(),
    });
    cleanups.unshift(close);
    // The URL decides the dialect: a suite may point a 'sqlite' backend at a server database of its own.
    const url = raw.DATABASE_URL!;
    const dialect = url.startsWith('postgres') ? 'postgres' : url.startsWith('mysql') ? 'mysql' : 'sqlite';
    const database = await openTestDatabase(dialect, url);
    cleanups.unshift(database.close);
    const harness = harnessFor(
      deps,
      async () => {
        for (const c of cleanups) await c().catch(() => {});
      },
      {
        answers: appAnswerChecker(),
        ownPublicUrl: 'PUBLIC_URL' in (backend.settings ?? {}),
        database,
        ...(smtp && { delivered: () => smtp.messages.map((m) => textOf(m.raw)) }),
      },
    );
    return Object.assign(harness, { smtp });
  } catch (err) {
    for (const c of cleanups) await c().catch(() => {});
    throw err;
  }
}

/** A connection of its own to the app's database, for what tests look at or inject. */
async function openTestDatabase(
  dialect: NodeBackend['db'],
  url: string,
): Promise<TestDatabase & { close(): Promise<void> }> {
  if (dialect === 'sqlite') {
    const { default: Database } = await import('better-sqlite3');
    const db = new Database(url.slice('sqlite:'.length));
    db.pragma('busy_timeout = 5000');
    return {
      dialect,
      query: async (statement) => {
        const prepared = db.prepare(statement);
        if (prepared.reader) return prepared.all() as Record<string, unknown>[];
        prepared.run();
        return [];
      },
      close: async () => void db.close(),
    };
  }
  if (dialect === 'postgres') {
    const { default: postgres } = await import('postgres');
    const sql = postgres(url, { max: 1, onnotice: () => {} });
    return {
      dialect,
      query: async (statement) => [...(await sql.unsafe(statement))] as Record<string, unknown>[],
      close: () => sql.end(),
    };
  }
  const mysql = await import('mysql2/promise');
  // Connected on first use: a suite that cuts the database (outage drills) may never ask.
  let connection: ReturnType<typeof mysql.createConnection> | undefined;
  return {
    dialect,
    query: async (statement) => {
      connection ??= mysql.createConnection(url);
      const [rows] = await (await connection).query(statement);
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : [];
    },
    close: async () => {
      if (connection) await (await connection).end();
    },
  };
}

let receiver: Promise<ReceiverServer> | undefined;

/** A fresh endpoint on this test process's webhook receiver (one server, started on first use, never keeping the process alive). */
export async function nodeWebhookReceiver(): Promise<WebhookReceiver> {
  receiver ??= startReceiver().then((r) => {
    r.server.unref();
    return r;
  });
  return (await receiver).endpoint();
}
