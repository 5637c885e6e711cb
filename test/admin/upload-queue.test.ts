import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { PendingUpload } from '../../admin-qwik/src/lib/pending-uploads';
import type { UploadWatcher } from '../../admin-qwik/src/lib/upload-queue';

/**
 * The upload queue's own decisions, with its edges replaced: IndexedDB by a
 * map, the network by answers the test hands out when it chooses, the shrink
 * by the file as it is. The browser tests (admin-editor-uploads) drive the
 * same code through Chromium but cannot choose when a resume runs against
 * an upload on its way; here each interleaving is forced with a held promise.
 */
const edges = vi.hoisted(() => {
  const store = new Map<string, PendingUpload>();
  const key = (p: { articleId: string; token: string }) => `${p.articleId}:${p.token}`;
  /** Writes wait here when a test holds them (the record's path decides which write). */
  const holds = { keepWithPath: null as Promise<void> | null, drop: null as Promise<void> | null };
  return {
    store,
    holds,
    pending: {
      keepPending: async (p: PendingUpload) => {
        if (p.path && holds.keepWithPath) await holds.keepWithPath;
        store.set(key(p), { ...p });
      },
      dropPending: async (p: { articleId: string; token: string }) => {
        if (holds.drop) await holds.drop;
        store.delete(key(p));
      },
      pendingFor: async (articleId: string) => [...store.values()].filter((p) => p.articleId === articleId),
    },
    uploadImage: vi.fn(),
  };
});

vi.mock('../../admin-qwik/src/lib/pending-uploads', () => edges.pending);
vi.mock('../../admin-qwik/src/lib/shrink-before-upload', () => ({
  shrinkBeforeUpload: async (file: File) => ({ file }),
}));
vi.mock('../../admin-qwik/src/lib/typed-api', () => ({
  // The library has no image with these bytes: every file is uploaded.
  call: async () => ({ ok: true, status: 200, data: { items: [] } }),
  uploadImage: edges.uploadImage,
}));

const { resumeUploads, uploadIntoText, watchUploads } = await import('../../admin-qwik/src/lib/upload-queue');

type Answer = { ok: boolean; status: number | null; message?: string; data?: unknown };
const uploaded = (filename: string): Answer => ({ ok: true, status: 201, data: { image: { filename } } });

/** An answer the test gives when it chooses. */
function held<T = void>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}

/** An editor that is on screen unless told otherwise, recording what it was asked to do. */
function editor(articleId: string, showing = true) {
  const placed: [string, string | null][] = [];
  const waiting: string[] = [];
  const finished: [boolean, string][] = [];
  const watcher: UploadWatcher = {
    showing: () => showing,
    progress: () => {},
    finished: (_token, ok, message) => finished.push([ok, message]),
    waiting: (token) => waiting.push(token),
    place: (token, _name, path) => placed.push([token, path]),
  };
  const stop = watchUploads(articleId, watcher);
  return { placed, waiting, finished, stop };
}

const file = (name: string) => new File([new Uint8Array([1, 2, 3])], name, { type: 'image/png' });
let n = 0;
/** Module state outlives a test: each test writes into an article of its own. */
const newArticle = () => `article-${++n}`;

beforeEach(() => {
  edges.uploadImage.mockReset();
  edges.holds.keepWithPath = null;
  edges.holds.drop = null;
  edges.store.clear();
});

describe('the upload queue', () => {
  it('does not send an upload again when a resume runs while it is on its way', async () => {
    const articleId = newArticle();
    const view = editor(articleId);
    const answer = held<Answer>();
    edges.uploadImage.mockReturnValueOnce(answer.promise);
    const upload = uploadIntoText(articleId, 't1', file('a.png'), false);
    await vi.waitFor(() => expect(edges.uploadImage).toHaveBeenCalledTimes(1));
    await resumeUploads(articleId);
    answer.resolve(uploaded('a.png'));
    await upload;
    expect(edges.uploadImage).toHaveBeenCalledTimes(1);
    expect(view.placed).toEqual([['t1', '/static/uploadedImages/a.png']]);
    expect(edges.store.size).toBe(0);
  });

  it('does not send it again when a resume runs after the answer, before its path is kept', async () => {
    const articleId = newArticle();
    const view = editor(articleId);
    const keeping = held();
    edges.holds.keepWithPath = keeping.promise;
    edges.uploadImage.mockResolvedValueOnce(uploaded('b.png'));
    const upload = uploadIntoText(articleId, 't1', file('b.png'), false);
    // Answered; the record still has no path while its write is held.
    await vi.waitFor(() => expect(edges.uploadImage).toHaveBeenCalledTimes(1));
    await resumeUploads(articleId);
    keeping.resolve();
    await upload;
    expect(edges.uploadImage).toHaveBeenCalledTimes(1);
    expect(view.placed).toEqual([['t1', '/static/uploadedImages/b.png']]);
  });

  it('does not place an image twice when a resume read it before its record was dropped', async () => {
    const articleId = newArticle();
    const view = editor(articleId);
    const dropping = held();
    edges.holds.drop = dropping.promise;
    edges.uploadImage.mockResolvedValueOnce(uploaded('c.png'));
    const upload = uploadIntoText(articleId, 't1', file('c.png'), false);
    await vi.waitFor(() => expect(view.placed).toHaveLength(1));
    // Placed, and its record (with the path) still there: what a resume reads in that moment.
    expect(edges.store.get(`${articleId}:t1`)?.path).toBe('/static/uploadedImages/c.png');
    await resumeUploads(articleId);
    dropping.resolve();
    await upload;
    expect(view.placed).toEqual([['t1', '/static/uploadedImages/c.png']]);
  });

  it('leaves a finished upload for the next visit when its editor is no longer on screen', async () => {
    const articleId = newArticle();
    const gone = editor(articleId, false);
    edges.uploadImage.mockResolvedValueOnce(uploaded('d.png'));
    await uploadIntoText(articleId, 't1', file('d.png'), false);
    expect(gone.placed).toEqual([]);
    expect(edges.store.get(`${articleId}:t1`)?.path).toBe('/static/uploadedImages/d.png');
    gone.stop();
    const back = editor(articleId);
    await resumeUploads(articleId);
    expect(back.placed).toEqual([['t1', '/static/uploadedImages/d.png']]);
    expect(back.finished[0]?.[0]).toBe(true);
    expect(edges.uploadImage).toHaveBeenCalledTimes(1);
    expect(edges.store.size).toBe(0);
  });

  it('keeps the file and its placeholder when no answer came, and sends it on the next resume', async () => {
    const articleId = newArticle();
    const view = editor(articleId);
    edges.uploadImage.mockResolvedValueOnce({ ok: false, status: null, message: 'the network is down' });
    await uploadIntoText(articleId, 't1', file('e.png'), false);
    expect(view.waiting).toEqual(['t1']);
    expect(view.placed).toEqual([]);
    expect(edges.store.get(`${articleId}:t1`)?.path).toBeNull();
    edges.uploadImage.mockResolvedValueOnce(uploaded('e.png'));
    await resumeUploads(articleId);
    expect(view.placed).toEqual([['t1', '/static/uploadedImages/e.png']]);
    expect(edges.store.size).toBe(0);
  });

  it('takes the placeholder out and forgets the file when the server refuses it', async () => {
    const articleId = newArticle();
    const view = editor(articleId);
    edges.uploadImage.mockResolvedValueOnce({ ok: false, status: 413, message: 'too large' });
    await uploadIntoText(articleId, 't1', file('f.png'), false);
    expect(view.placed).toEqual([['t1', null]]);
    expect(view.finished).toEqual([[false, 'f.png: larger than the upload limit']]);
    expect(edges.store.size).toBe(0);
    await resumeUploads(articleId);
    expect(edges.uploadImage).toHaveBeenCalledTimes(1);
  });
});
