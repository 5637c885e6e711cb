import { createLogMailer } from '../../worker/src/adapters/mail/log.mailer.js';
import { createJsonLogger } from '../../worker/src/adapters/runtime/json-logger.js';
import { createApp } from '../../worker/src/app/app.js';
import type { AppDeps } from '../../worker/src/feature-api/deps.js';
import type { Clock } from '../../worker/src/ports/runtime.js';
import type { TestDatabase } from './test-database.js';
import type { WebhookReceiver } from './webhook-receiver.js';

/**
 * The same API suites run against every target and backend: a harness wraps
 * an app built from real adapters, with the log mailer captured (so tests
 * read links the way a first-run user would) and a clock that can jump.
 */
export class TestClock implements Clock {
  private offsetMs = 0;
  now = () => new Date(Date.now() + this.offsetMs);
  advance(ms: number) {
    this.offsetMs += ms;
  }
}

export interface RequestOptions {
  method?: string;
  token?: string;
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
}

/** Workers' types make `json()` return unknown; tests read bodies loosely on purpose. */
// biome-ignore lint/suspicious/noExplicitAny: tests read bodies loosely, as the comment above says
export type TestResponse = Omit<Response, 'json'> & { json(): Promise<any> };

export interface ApiHarness {
  request(path: string, options?: RequestOptions): Promise<TestResponse>;
  /** Every log line the mailer wrote, oldest first. */
  mailLog: string[];
  /** Every other line the app logged (JSON, at the harness's LOG_LEVEL), oldest first. */
  logLines: string[];
  /** The code of the newest link `{PUBLIC_URL}{path}?code=…` found in the mail log. */
  lastCode(path: '/verify' | '/reset-password' | '/accept-invite'): string;
  /** Every such code, oldest first. */
  codes(path: '/verify' | '/reset-password' | '/accept-invite'): string[];
  clock: TestClock;
  /** The deps the app runs on (with this clock): for seeding storage directly and for the scheduler. */
  deps: AppDeps;
  /** Raw access to the app's database (test/support/test-database.ts). */
  database: TestDatabase;
  cleanup(): Promise<void>;
}

export const PUBLIC_URL = 'http://cms.test';

/** What an API suite may need to know about the target it runs on. */
export interface ApiTarget {
  jwtSecret: string;
  maxUploadBytes: number;
  target: 'node' | 'workers';
  /** A fresh webhook endpoint that this target's app can reach (on 127.0.0.1). */
  webhookReceiver(): Promise<WebhookReceiver>;
}

/** A fresh app and store; `settings` (by their environment names) change the defaults. */
export type SetupApi = (settings?: Record<string, string>) => Promise<ApiHarness>;

/**
 * Requests name their network peer in this header; the real peer lookups
 * have tests of their own. Without it each request comes from a different
 * address, so only the rate-limit tests (which name one) meet the limits.
 */
export const TEST_PEER_HEADER = 'x-test-peer';
let peerCounter = 0;
const anotherPeer = () => `198.18.${(++peerCounter >> 8) & 255}.${peerCounter & 255}`;

export interface HarnessOptions {
  /** Keep the deps' own mailer (e.g. real SMTP) and read what it delivered from here. */
  delivered?: () => string[];
  /** Fails the request when an answer does not fit the OpenAPI document (test/support/openapi-answers.ts). */
  answers?: { check(method: string, url: string, status: number, type: string | null, body: string): string[] };
  /** The suite set PUBLIC_URL itself (or unset it with ''): keep the parsed one instead of the harness's. */
  ownPublicUrl?: boolean;
  /** Raw access to the app's database (the Node backends and workerd give it). */
  database?: TestDatabase;
}

export function harnessFor(deps: AppDeps, cleanup: () => Promise<void>, options: HarnessOptions = {}): ApiHarness {
  const mailLog: string[] = [];
  const logLines: string[] = [];
  const clock = new TestClock();
  const pending: Promise<unknown>[] = [];
  const appDeps: AppDeps = {
    ...deps,
    clock,
    logger: createJsonLogger((line) => logLines.push(line), { level: deps.settings.logLevel }),
    mailer: options.delivered ? deps.mailer : createLogMailer(createJsonLogger((line) => mailLog.push(line))),
    settings: options.ownPublicUrl
      ? deps.settings
      : { ...deps.settings, publicUrl: PUBLIC_URL, publicUrlConfigured: true },
    peerAddress: (request) => request.headers.get(TEST_PEER_HEADER) ?? anotherPeer(),
    // Deferred work (e-mails sent after the response) finishes before request() returns.
    defer: (work) => void pending.push(work.catch(() => {})),
  };
  const app = createApp(appDeps);
  const answers = options.answers;
  return {
    mailLog,
    logLines,
    clock,
    deps: appDeps,
    get database() {
      if (!options.database) throw new Error('this harness gives no raw access to its database');
      return options.database;
    },
    cleanup,
    async request(url, options = {}) {
      // Answers link absolutely (PUBLIC_URL): such a link is requested as its path.
      const path = url.startsWith(PUBLIC_URL) ? url.slice(PUBLIC_URL.length) : url;
      const headers = new Headers(options.headers);
      if (options.token) headers.set('authorization', `Bearer ${options.token}`);
      let body = options.body;
      if (options.json !== undefined) {
        headers.set('content-type', 'application/json');
        body = JSON.stringify(options.json);
      }
      // `duplex` is required by fetch for streamed request bodies.
      const init = { method: options.method ?? 'GET', headers, body, duplex: 'half' } as RequestInit;
      // A whole URL of another origin is asked there (its Host), as a client of that name would.
      const whole = /^https?:\/\//.test(path);
      const res = await app.fetch(new Request(whole ? path : `http://localhost${path}`, init));
      await Promise.all(pending.splice(0));
      const type = res.headers.get('content-type');
      if (answers) {
        const body = /^application\/json\b/i.test(type ?? '') ? await res.clone().text() : '';
        const asked = whole ? `${new URL(path).pathname}${new URL(path).search}` : path;
        const problems = answers.check(init.method!, asked, res.status, type, body);
        if (problems.length > 0)
          throw new Error(`The answer does not fit the OpenAPI document:\n${problems.join('\n')}`);
      }
      return res;
    },
    codes(path) {
      const base = appDeps.settings.publicUrl.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      const pattern = new RegExp(`${base}${path}\\?code=([A-Za-z0-9_%-]+)`, 'g');
      // A log mailer line names each link twice (its `links` and its `text`): one code per mail.
      return (options.delivered ? options.delivered() : mailLog).flatMap((line) => [
        ...new Set([...line.matchAll(pattern)].map((m) => decodeURIComponent(m[1]!))),
      ]);
    },
    lastCode(path) {
      const codes = this.codes(path);
      const last = codes[codes.length - 1];
      if (!last) throw new Error(`no ${path} link in the mail log:\n${mailLog.join('\n')}`);
      return last;
    },
  };
}
