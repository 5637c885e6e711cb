import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import type { BrowserProblems } from '../support/browser.js';
import { apiCall, type Cms, createOwner, editorSettings, newPage, POLL, signIn, startCms } from './admin-helpers.js';

/**
 * A describe block's CMS with its owner: the server and Chromium started and
 * the owner made (through the API) before its tests, all stopped after them.
 * It is a `Cms` itself (`server`, `browser`, `contexts`), so `newPage(cms)` and
 * `cms.server.url` read as before; the rest is the set-up the editor's tests
 * shared in near-copies.
 */
export interface OwnerCms extends Cms {
  /** The owner's session token, for fixtures through the API. */
  readonly token: string;
  /** A JSON call to the API as the owner. */
  api<T = unknown>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** A new article through the API; its id. */
  createArticle(fields: { title: string; body?: string }): Promise<string>;
  /** The article as the API has it now. */
  stored<T>(id: string): Promise<T>;
  /** A phone-sized page signed in as the owner (`beforeSignIn` sees the page first, to watch it). */
  signedInPage(
    beforeSignIn?: (page: Page) => void,
  ): Promise<{ context: BrowserContext; page: Page; problems: BrowserProblems }>;
  /** `page` on the article's editor, loaded and watching for changes. */
  openEditor(page: Page, id: string): Promise<void>;
  /** A new article open in the editor of a fresh signed-in page, its side panel showing the Images card. */
  openImages(
    title: string,
    beforeSignIn?: (page: Page) => void,
  ): Promise<{ id: string; context: BrowserContext; page: Page; problems: BrowserProblems }>;
}

/** Registers the beforeAll and afterAll hooks of the calling describe block; call it at its top. */
export function ownerCms(email: string, env: Record<string, string> = {}): OwnerCms {
  let cms: Cms | undefined;
  let token = '';
  const started = (): Cms => {
    if (!cms) throw new Error('the CMS is started in beforeAll: use it inside a test');
    return cms;
  };
  beforeAll(async () => {
    cms = await startCms(env);
    token = await createOwner(cms.server, email);
  });
  afterAll(async () => {
    await cms?.stop();
  });
  const fixture: OwnerCms = {
    get server() {
      return started().server;
    },
    get browser() {
      return started().browser;
    },
    get contexts() {
      return started().contexts;
    },
    get token() {
      return token;
    },
    stop: () => started().stop(),
    api: (method, path, body) => apiCall(started().server, method, path, token, body),
    async createArticle(fields) {
      const res = await fixture.api<{ article: { id: string } }>('POST', '/v1/articles', fields);
      if (res.status !== 201) throw new Error(`create article: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.article.id;
    },
    async stored<T>(id: string) {
      return (await fixture.api<{ article: T }>('GET', `/v1/articles/${id}`)).body.article;
    },
    async signedInPage(beforeSignIn) {
      const opened = await newPage(started());
      beforeSignIn?.(opened.page);
      await signIn(opened.page, started().server.url, email);
      return opened;
    },
    async openEditor(page, id) {
      await page.goto(`${started().server.url}/articles/edit?id=${id}`);
      await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    },
    async openImages(title, beforeSignIn) {
      const id = await fixture.createArticle({ title });
      const opened = await fixture.signedInPage(beforeSignIn);
      await fixture.openEditor(opened.page, id);
      await editorSettings(opened.page);
      await opened.page.getByRole('heading', { name: 'Images' }).waitFor(POLL);
      return { id, ...opened };
    },
  };
  return fixture;
}
