import type { Page, Response } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1x1 } from '../support/images.js';
import {
  bodyText,
  type Cms,
  createOwner,
  editorSettings,
  expectNoProblems,
  fillBody,
  newPage,
  POLL,
  screenshots,
  showPreview,
  signIn,
  startCms,
} from './admin-helpers.js';

const EMAIL = 'writer@example.com';

/** Writing: CodeMirror under the strict CSP, a toolbar and shortcuts, the page for the text. */
describe('admin editor for writing', () => {
  let cms: Cms;
  beforeAll(async () => {
    cms = await startCms();
    await createOwner(cms.server, EMAIL);
  });
  afterAll(async () => {
    await cms?.stop();
  });

  it('loads CodeMirror on the editor only, and its toolbar and shortcuts write Markdown', async () => {
    const base = cms.server.url;
    const { context, page, problems } = await newPage(cms);
    const scripts: Response[] = [];
    context.on('response', (r) => {
      if (r.request().resourceType() === 'script') scripts.push(r);
    });
    const hasCodeMirror = async () =>
      (await Promise.all(scripts.map(async (r) => (await r.text().catch(() => '')).includes('cm-scroller')))).some(
        Boolean,
      );
    await signIn(page, base, EMAIL);
    expect(await hasCodeMirror()).toBe(false);

    await page.goto(`${base}/articles/new`);
    await fillBody(page, 'word');
    expect(await hasCodeMirror()).toBe(true);
    const editor = page.getByRole('textbox', { name: 'Body' });
    expect(await editor.getAttribute('contenteditable')).toBe('true');
    await editor.press('Shift+Home');
    await editor.press('Control+b');
    expect(await bodyText(page)).toBe('**word**');
    await editor.press('End');
    await editor.press('Enter');
    await editor.pressSequentially('Title line');
    await page.getByRole('toolbar', { name: 'Markdown toolbar' }).getByRole('button', { name: 'Heading' }).click();
    expect(await bodyText(page)).toBe('**word**\n## Title line');
    await editor.press('Control+z');
    expect(await bodyText(page)).toBe('**word**\nTitle line');
    expectNoProblems(problems);
  });

  it('continues lists and quotes on Enter, counting up, and ends them on an empty item', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles/new`);
    await fillBody(page, '');
    const editor = page.getByRole('textbox', { name: 'Body' });
    /** Types each piece, pressing Enter after all but the last. */
    const lines = async (...parts: string[]) => {
      for (const [i, part] of parts.entries()) {
        if (part) await editor.pressSequentially(part);
        if (i < parts.length - 1) await editor.press('Enter');
      }
    };
    // Ending a list or a quote leaves a blank line: a line straight under it would be glued into its last item.
    const cases: [string[], string][] = [
      [['- one', 'two', '', 'After.'], '- one\n- two\n\nAfter.'],
      [['* star', 'next'], '* star\n* next'],
      [['1. first', 'second', 'third', '', ''], '1. first\n2. second\n3. third\n\n'],
      [['- [x] done', 'open', '', ''], '- [x] done\n- [ ] open\n\n'],
      [['> quoted', 'more', '', 'After.'], '> quoted\n> more\n\nAfter.'],
      [['> > deep', '', 'Outer.'], '> > deep\n>\n> Outer.'],
    ];
    for (const [parts, expected] of cases) {
      await fillBody(page, '');
      await lines(...parts);
      expect(await bodyText(page)).toBe(expected);
    }
    // As the server renders it: the paragraph after the list and the quote is not inside them.
    await fillBody(page, '');
    await lines('- one', '', 'After the list.', '> quoted', '', 'After the quote.');
    const preview = await showPreview(page);
    await expect.poll(() => preview.locator('li').allTextContents(), POLL).toEqual(['one']);
    expect(await preview.locator('blockquote').allTextContents()).toEqual([expect.stringMatching(/^\s*quoted\s*$/)]);
    for (const text of ['After the list.', 'After the quote.'])
      expect(
        await preview.getByText(text).evaluate((p) => p.tagName + (p.closest('li, blockquote') ? ' inside' : '')),
      ).toBe('P');
    expectNoProblems(problems);
  });

  it('puts the caret after a list or quote marker, selects the link’s URL, redoes, and tells how to leave the text', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles/new`);
    await fillBody(page, '');
    const editor = page.getByRole('textbox', { name: 'Body' });
    const toolbar = page.getByRole('toolbar', { name: 'Markdown toolbar' });

    // List and Quote on an empty line: typing goes after the marker.
    await toolbar.getByRole('button', { name: 'Bulleted list' }).click();
    await page.keyboard.type('item');
    expect(await bodyText(page)).toBe('- item');
    await fillBody(page, '');
    await toolbar.getByRole('button', { name: 'Quote' }).click();
    await page.keyboard.type('said');
    expect(await bodyText(page)).toBe('> said');

    // Ctrl+K on selected words: the URL placeholder is selected, so typing the address keeps the words.
    await fillBody(page, 'site');
    await editor.press('Shift+Home');
    await editor.press('Control+k');
    await page.keyboard.type('https://example.com');
    expect(await bodyText(page)).toBe('[site](https://example.com)');

    // Ctrl+Z undoes, Ctrl+Shift+Z (and Ctrl+Y) redo.
    await editor.press('Control+z');
    expect(await bodyText(page)).toBe('[site](https://)');
    // The key as Playwright (and Caps Lock) deliver it: "z" with Shift held.
    await editor.press('Control+Shift+z');
    expect(await bodyText(page)).toBe('[site](https://example.com)');

    // Tab indents, and the hint says how to leave: Escape, then Tab.
    const hint = page.locator('#article-body-hint');
    expect(await hint.textContent()).toContain('press Esc, then Tab, to leave the text');
    expect(await editor.getAttribute('aria-describedby')).toContain('article-body-hint');
    await editor.press('Home');
    await editor.press('Tab');
    expect(await bodyText(page)).toMatch(/^\s+\[site\]/);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).toBe('article-body');
    await editor.press('Escape');
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.id), POLL).not.toBe('article-body');
    expect(await bodyText(page)).toMatch(/^\s+\[site\]/);

    // Words and reading time follow the text.
    await fillBody(page, 'One two three.');
    await expect.poll(() => page.getByTestId('word-count').textContent(), POLL).toBe('3 words · 1 min read');
    await fillBody(page, Array.from({ length: 700 }, () => 'word').join(' '));
    await expect.poll(() => page.getByTestId('word-count').textContent(), POLL).toBe('700 words · 3 min read');

    // A long text scrolls under the toolbar, which stays in view.
    await editor.press('Control+End');
    await page.mouse.wheel(0, 4000);
    await expect.poll(async () => (await toolbar.boundingBox())?.y ?? -1, POLL).toBeGreaterThanOrEqual(0);
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
    expectNoProblems(problems);
  });

  it('gives the text the page on a wide screen, with the settings beside it; a drawer on a phone', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles/new`);
    await page.locator('.editor-layout[data-ready]').waitFor(POLL);
    await page.getByLabel('Title', { exact: true }).fill('A wide page');
    await fillBody(page, 'The text takes the page.');

    // Phone: the text takes the screen's width.
    const phoneBody = (await page.getByRole('textbox', { name: 'Body' }).boundingBox())!;
    expect(phoneBody.width).toBeGreaterThan(375 * 0.9);

    // The settings are out of the way until asked for; the drawer is a dialog that takes the focus,
    // keeps it (Tab from its last field goes back to its first), and Escape gives it back.
    expect(await page.getByLabel('Format').isVisible()).toBe(false);
    const toggle = page.getByRole('button', { name: 'Article settings' });
    await toggle.click();
    await page.getByLabel('Format').waitFor(POLL);
    const dialog = page.getByRole('dialog', { name: 'Article settings' });
    await dialog.waitFor(POLL);
    expect(await dialog.getAttribute('aria-modal')).toBe('true');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('Close settings');
    await page.keyboard.press('Shift+Tab');
    const inDrawer = () => page.evaluate(() => !!document.activeElement?.closest('#editor-side'));
    expect(await inDrawer()).toBe(true);
    await page.keyboard.press('Tab');
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), POLL).toBe('Close settings');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByLabel('Format').isVisible(), POLL).toBe(false);
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.textContent?.trim()), POLL)
      .toBe('Article settings');

    await page.setViewportSize({ width: 1440, height: 900 });
    expect(await toggle.isVisible()).toBe(false);
    expect(await page.getByRole('dialog').count()).toBe(0);
    const body = (await page.getByRole('textbox', { name: 'Body' }).boundingBox())!;
    const side = (await page.getByRole('complementary', { name: 'Article settings' }).boundingBox())!;
    expect(side.x).toBeGreaterThan(body.x + body.width);
    expect(body.width).toBeGreaterThan(side.width);
    await editorSettings(page);
    await screenshots(page, 'editor-writing');
    expectNoProblems(problems);
  });

  it('puts images into the text at the caret: dropped, pasted, picked or from the library, alt text first', async () => {
    const base = cms.server.url;
    const { page, problems } = await newPage(cms);
    await signIn(page, base, EMAIL);
    await page.goto(`${base}/articles/new`);
    await page.getByLabel('Title', { exact: true }).fill('Pictures in the text');
    await fillBody(page, 'Intro.');
    const editor = page.getByRole('textbox', { name: 'Body' });
    await editor.press('Control+End');

    // Dropped onto the text: uploaded to this article and inserted, its alt text selected to type over.
    await dropOrPaste(page, 'drop', 'red-dot.png');
    await expect.poll(() => bodyText(page), POLL).toMatch(/^Intro\.\n\n!\[red dot\]\(\/[^)]+\)\n$/);
    await page.keyboard.type('A red dot');
    await expect.poll(() => bodyText(page), POLL).toMatch(/^Intro\.\n\n!\[A red dot\]\(\/[^)]+\)\n$/);
    await page.waitForURL(/\/articles\/edit\?id=/, POLL);

    // Pasted, and picked with the toolbar's Image button.
    await editor.press('Control+End');
    await dropOrPaste(page, 'paste', 'pasted.png');
    await expect.poll(async () => (await bodyText(page)).match(/!\[pasted\]/g)?.length ?? 0, POLL).toBe(1);
    await editor.press('Control+End');
    await page
      .locator('#body-image-file')
      .setInputFiles({ name: 'picked.png', mimeType: 'image/png', buffer: Buffer.from(PNG_1x1) });
    await expect.poll(async () => (await bodyText(page)).match(/!\[picked\]/g)?.length ?? 0, POLL).toBe(1);

    // From the article's images in the side panel.
    await editorSettings(page);
    // Three inserts of the same bytes: one image, found in the library after the first upload.
    const images = page.getByTestId('article-images');
    await expect.poll(() => images.locator('li').count(), POLL).toBe(1);
    await images
      .getByRole('button', { name: /into the text$/ })
      .first()
      .click();
    await expect.poll(async () => (await bodyText(page)).match(/!\[[^\]]*\]\(\//g)?.length ?? 0, POLL).toBe(4);

    // Every reference is an image of this article, and the server has the text.
    const urls = [...(await bodyText(page)).matchAll(/!\[[^\]]*\]\((\/[^)]+)\)/g)].map((m) => m[1]!);
    for (const url of urls) expect((await fetch(new URL(url, base))).status).toBe(200);
    const id = new URL(page.url()).searchParams.get('id');
    await expect
      .poll(
        async () => ((await (await fetch(`${base}/v1/articles/${id}`)).json()) as { article?: unknown }).article,
        POLL,
      )
      .toBeUndefined(); // offline: not public
    expectNoProblems(problems);
  });
});

/** A PNG dropped or pasted onto the body, as the browser delivers it (a DataTransfer with a File). */
async function dropOrPaste(page: Page, how: 'drop' | 'paste', name: string): Promise<void> {
  await page.locator('.cm-content#article-body').evaluate(
    (el, { how, name, bytes }) => {
      const dt = new DataTransfer();
      dt.items.add(new File([new Uint8Array(bytes)], name, { type: 'image/png' }));
      const event =
        how === 'paste'
          ? new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true })
          : // Dropped near the bottom right of the text, below its last line: the end of the text.
            new DragEvent('drop', {
              dataTransfer: dt,
              bubbles: true,
              cancelable: true,
              clientX: el.getBoundingClientRect().right - 8,
              clientY: el.getBoundingClientRect().bottom - 8,
            });
      el.dispatchEvent(event);
    },
    { how, name, bytes: Array.from(PNG_1x1) },
  );
}
