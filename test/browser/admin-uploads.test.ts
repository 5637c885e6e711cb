import { describe, expect, it } from 'vitest';
import { HTML, JPEG_400x300 } from '../support/images.js';
import { ownerCms } from './admin-fixture.js';
import { expectNoProblems, POLL } from './admin-helpers.js';

const EMAIL = 'owner@example.com';

/** The editor's uploads can be cancelled, and a failed one says why and offers Retry and Dismiss. */
describe('admin uploads: cancel, failure, retry', () => {
  const cms = ownerCms(EMAIL);

  const imageCount = async (id: string) =>
    (await cms.api<{ items: unknown[] }>('GET', `/v1/articles/${id}/images`)).body.items.length;

  it('cancels an upload under way: no bar, nothing stored; Retry sends it after all', async () => {
    const { id, page, problems } = await cms.openImages('Uploads');
    // A very slow uplink (the 5 KB file takes seconds): the upload is still going when Cancel is pressed.
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Network.enable');
    const uplink = (bytesPerSecond: number) =>
      cdp.send('Network.emulateNetworkConditions', {
        offline: false,
        latency: 0,
        downloadThroughput: -1,
        uploadThroughput: bytesPerSecond,
      });
    await uplink(1024);
    await page
      .locator('#image-file')
      .setInputFiles({ name: 'kite.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(JPEG_400x300) });
    const row = page.getByTestId('upload').first();
    await row.and(page.locator('[data-state="uploading"]')).waitFor(POLL);
    await row.getByRole('button', { name: 'Cancel upload of kite.jpg' }).click();
    await row.and(page.locator('[data-state="cancelled"]')).waitFor(POLL);
    expect(await row.locator('progress').count()).toBe(0);
    expect(await row.textContent()).toContain('Cancelled');
    expect(await row.getByRole('button', { name: 'Cancel upload of kite.jpg' }).count()).toBe(0);
    expect(await imageCount(id)).toBe(0);

    await uplink(-1);
    await row.getByRole('button', { name: 'Retry upload of kite.jpg' }).click();
    await row.and(page.locator('[data-state="done"]')).waitFor(POLL);
    expect(await row.locator('progress').getAttribute('value')).toBe('100');
    expect(await imageCount(id)).toBe(1);
    await expect.poll(() => page.getByTestId('article-images').locator('li').count(), POLL).toBe(1);
    expectNoProblems(problems);
  });

  it('shows a refused upload as failed with the reason, without a bar; Dismiss removes the row; the next file still goes', async () => {
    const { id, page, problems } = await cms.openImages('Uploads');
    await page.locator('#image-file').setInputFiles([
      { name: 'notes.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(HTML) },
      { name: 'photo.jpg', mimeType: 'image/jpeg', buffer: Buffer.from(JPEG_400x300) },
    ]);
    const rows = page.getByTestId('upload');
    const failed = rows.first();
    await failed.and(page.locator('[data-state="failed"]')).waitFor(POLL);
    await rows.nth(1).and(page.locator('[data-state="done"]')).waitFor(POLL);
    expect(await failed.locator('progress').count()).toBe(0);
    const reason = failed.getByRole('alert');
    expect((await reason.textContent())?.trim()).not.toBe('');
    expect(await failed.textContent()).toContain('Failed');
    await failed.getByRole('button', { name: 'Retry upload of notes.jpg' }).waitFor(POLL);
    expect(await imageCount(id)).toBe(1);

    await failed.getByRole('button', { name: 'Dismiss notes.jpg' }).click();
    await expect.poll(() => rows.count(), POLL).toBe(1);
    expect(await rows.first().getAttribute('data-state')).toBe('done');
    expectNoProblems(problems, [{ path: /\/v1\/articles\/[^/]+\/images$/, status: 400 }]);
  });
});
