import {
  $,
  component$,
  noSerialize,
  type QRL,
  type Signal,
  useSignal,
  useStore,
  useVisibleTask$,
} from '@builder.io/qwik';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { formatBytes, formatDateTime } from '../../lib/format';
import { SHRINK_MAX_SIDE } from '../../lib/image-fit';
import { imagePath } from '../../lib/image-path';
import { shrinkBeforeUpload } from '../../lib/shrink-before-upload';
import { getShrinkSetting, setShrinkSetting } from '../../lib/shrink-setting';
import { uploadOrReuse } from '../../lib/upload-queue';
import { isActive, type UploadItem, UploadList } from '../media/upload-list';

/**
 * The editor's Images card: picker, drag and drop, an upload list with
 * progress, and the article's images. Large JPEG / PNG / WebP files are
 * shrunk to fit SHRINK_MAX_SIDE in the browser first (lib/shrink-before-upload.ts,
 * as for images put into the text) unless the user turned that off.
 */
export const ImageUploader = component$(
  (props: {
    articleId: string;
    images: Signal<ImageDto[]>;
    onUploaded$: QRL<() => Promise<void>>;
    /** Puts `![alt](url)` into the text at the caret (the editor's body). */
    onInsert$?: QRL<(url: string, alt: string) => unknown>;
  }) => {
    const uploads = useStore<{ items: UploadItem[] }>({ items: [] });
    const dragging = useSignal(false);
    const dropzone = useSignal<HTMLElement>();
    const shrink = useSignal(true);
    const nextId = useSignal(0);

    /** Shrinks (when large and asked to) and sends one row's file; the row shows how it went. */
    const send = $(async (id: number, shrinkOn: boolean) => {
      const update = (patch: Partial<UploadItem>) => {
        uploads.items = uploads.items.map((it) => (it.id === id ? { ...it, ...patch } : it));
      };
      const item = uploads.items.find((it) => it.id === id);
      const file = item?.file;
      if (!file) return;
      const controller = new AbortController();
      update({ state: 'uploading', percent: 0, error: null, sizes: null, controller: noSerialize(controller) });
      const { file: toSend, sizes } = await shrinkBeforeUpload(file, shrinkOn, (note) =>
        update({ state: 'shrinking', sizes: note }),
      );
      update({ state: 'uploading', sizes });
      // A Cancel pressed while shrinking: uploadImage answers 'aborted' at once.
      // The library's image when it has these bytes: linked to the article, not uploaded again.
      const res = await uploadOrReuse(
        props.articleId,
        toSend,
        (f) => update({ percent: Math.round(f * 100) }),
        controller.signal,
      );
      if (res.ok)
        update({
          state: 'done',
          percent: 100,
          controller: undefined,
          ...(res.data.reused && { sizes: 'Already in the library: its image is used, not uploaded again' }),
        });
      else if (res.code === 'aborted') update({ state: 'cancelled', controller: undefined });
      else
        update({
          state: 'failed',
          controller: undefined,
          error: res.status === 413 ? 'The file is larger than the upload limit.' : res.message,
        });
    });

    /** The box as it is now: a click can come before the page has resumed its handlers. */
    const shrinkChecked = $(
      () => (document.getElementById('shrink-large') as HTMLInputElement | null)?.checked ?? shrink.value,
    );

    const uploadFiles = $(async (files: File[]) => {
      const shrinkOn = await shrinkChecked();
      const added = files.map(
        (file): UploadItem => ({
          id: nextId.value++,
          name: file.name,
          percent: 0,
          state: 'uploading',
          error: null,
          sizes: null,
          file: noSerialize(file),
          controller: undefined,
        }),
      );
      uploads.items = [...uploads.items, ...added];
      // One at a time, in order; a cancelled or failed one does not stop the rest.
      for (const { id } of added) {
        if (uploads.items.find((it) => it.id === id)?.state === 'uploading') await send(id, shrinkOn);
      }
      await props.onUploaded$();
    });

    const cancel = $((id: number) => {
      const item = uploads.items.find((it) => it.id === id);
      if (!item || !isActive(item)) return;
      if (item.controller) item.controller.abort();
      // Not started yet (waiting behind another file): it never will be.
      else uploads.items = uploads.items.map((it) => (it.id === id ? { ...it, state: 'cancelled' } : it));
    });

    const retry = $(async (id: number) => {
      await send(id, await shrinkChecked());
      await props.onUploaded$();
    });

    // The remembered choice; the page was rendered at build time with the default (on).
    useVisibleTask$(
      () => {
        shrink.value = getShrinkSetting();
      },
      { strategy: 'document-ready' },
    );

    // Drag and drop through plain listeners: a drop's files are readable only while the event is dispatched.
    useVisibleTask$(
      ({ track, cleanup }) => {
        const el = track(() => dropzone.value);
        if (!el) return;
        const over = (e: DragEvent) => {
          e.preventDefault();
          dragging.value = true;
        };
        const leave = () => (dragging.value = false);
        const drop = (e: DragEvent) => {
          e.preventDefault();
          dragging.value = false;
          const files = Array.from(e.dataTransfer?.files ?? []);
          if (files.length) void uploadFiles(files);
        };
        el.addEventListener('dragover', over);
        el.addEventListener('dragleave', leave);
        el.addEventListener('drop', drop);
        el.dataset.dropReady = 'true';
        cleanup(() => {
          delete el.dataset.dropReady;
          el.removeEventListener('dragover', over);
          el.removeEventListener('dragleave', leave);
          el.removeEventListener('drop', drop);
        });
      },
      { strategy: 'document-ready' },
    );

    const images = props.images.value;
    return (
      <section class="card" aria-labelledby="images-heading">
        <h2 id="images-heading">Images</h2>
        <div ref={dropzone} class={['dropzone', dragging.value && 'dropzone-active']} data-testid="dropzone">
          <p>Drop JPEG, PNG, WebP or GIF images here, or</p>
          <label for="image-file" class="button">
            Choose images…
          </label>
          <input
            id="image-file"
            class="visually-hidden-input"
            type="file"
            accept="image/jpeg,image/png,image/webp,image/gif"
            multiple
            onChange$={async (_, el) => {
              const files = Array.from(el.files ?? []);
              el.value = '';
              await uploadFiles(files);
            }}
          />
        </div>
        <div class="check">
          <input
            id="shrink-large"
            type="checkbox"
            checked={shrink.value}
            aria-describedby="shrink-large-hint"
            onChange$={(_, el) => {
              shrink.value = el.checked;
              setShrinkSetting(el.checked);
            }}
          />
          <label for="shrink-large">{`Shrink images larger than ${SHRINK_MAX_SIDE} px before uploading`}</label>
        </div>
        <p id="shrink-large-hint" class="hint">
          JPEG, PNG and WebP only, done in this browser (WebAssembly); the choice is remembered here.
        </p>
        <UploadList
          items={uploads.items}
          onCancel$={cancel}
          onRetry$={retry}
          onDismiss$={(id) => {
            uploads.items = uploads.items.filter((it) => it.id !== id);
          }}
        />
        {images.length === 0 ? (
          <p>No images yet.</p>
        ) : (
          <ul class="media-grid" aria-label="Images of this article" data-testid="article-images">
            {images.map((img) => (
              <li key={img.id} class="media-tile">
                <img src={img.url} alt={img.filename} width={img.width} height={img.height} loading="lazy" />
                <span class="media-name">{img.filename}</span>
                <span class="item-meta">
                  {img.width}×{img.height}, {formatBytes(img.bytes)},{' '}
                  <time dateTime={img.createdAt}>{formatDateTime(img.createdAt)}</time>
                </span>
                <code class="media-md">![]({imagePath(img)})</code>
                {props.onInsert$ && (
                  <button
                    type="button"
                    class="button button-quiet"
                    onClick$={() => props.onInsert$?.(imagePath(img), img.filename.replace(/\.[a-z0-9]+$/i, ''))}
                  >
                    {/* Named from its words (an aria-label must contain the visible ones): "Insert photo.jpg into the text". */}
                    Insert<span class="visually-hidden"> {img.filename}</span> into the text
                  </button>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  },
);
