import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Cms,
  createOwner,
  editorSettings,
  expectNoProblems,
  fillBody,
  newPage,
  POLL,
  showPreview,
  signIn,
  startCms,
} from './admin-helpers.js';

const EMAIL = 'preview-owner@example.com';

/**
 * The editor's preview is the server's renderer (the old one
 * flattened nested lists, dropped tables and turned `#` into h2).
 */
describe('admin article preview', () => {
  let cms: Cms;
  beforeAll(async () => {
    cms = await startCms();
    await createOwner(cms.server, EMAIL);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('shows CommonMark and GFM as the server renders it, links in a new tab, images from this server only', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles/new`);
    await fillBody(
      page,
      [
        '# Top heading',
        '',
        '- one',
        '  - one.one',
        '    - one.one.one',
        '- two',
        '',
        '| Name | Score |',
        '|:-----|------:|',
        '| Ada  | ~~9~~ 10 |',
        '',
        '- [x] written',
        '- [ ] published',
        '',
        '[docs](https://example.com/docs) ![elsewhere](https://cdn.example/x.png) ![here](data:image/gif;base64,R0lGODlhAQABAAAAACwAAAAAAQABAAA=)',
      ].join('\n'),
    );
    const preview = await showPreview(page);
    await preview.getByRole('heading', { level: 1, name: 'Top heading' }).waitFor(POLL);
    expect(await preview.locator('ul ul ul li').textContent()).toBe('one.one.one');
    expect(await preview.locator('table th').allTextContents()).toEqual(['Name', 'Score']);
    expect(await preview.locator('table td s').textContent()).toBe('9');
    const boxes = preview.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    expect(
      await boxes.evaluateAll((b) => b.map((x) => [(x as HTMLInputElement).checked, (x as HTMLInputElement).disabled])),
    ).toEqual([
      [true, true],
      [false, true],
    ]);
    const link = preview.getByRole('link', { name: 'docs' });
    expect(await link.getAttribute('target')).toBe('_blank');
    expect(await link.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(await preview.locator('img').evaluateAll((i) => i.map((x) => x.getAttribute('alt')))).toEqual(['here']);

    await editorSettings(page);
    await page.getByLabel('Format').selectOption('html');
    await editorSettings(page, false);
    await fillBody(page, '<h2>Raw</h2><p>An <em>HTML</em> body<img src=x onerror="window.__pwned=1"></p>');
    await preview.getByRole('heading', { level: 2, name: 'Raw' }).waitFor(POLL);
    expect(await preview.locator('em').textContent()).toBe('HTML');
    expect(await preview.locator('img').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: unknown }).__pwned)).toBeUndefined();
    expectNoProblems(problems);
  });
});
