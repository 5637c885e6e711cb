import { $, component$, useOnDocument, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { ImageDetail, type ImageDetailDto } from '../../components/media/image-detail';
import { LoadingNotice } from '../../components/status/loading-notice';
import { ConfirmButton } from '../../components/ui/confirm-button';
import { FormError, Status } from '../../components/ui/form-error';
import { formatBytes } from '../../lib/format';
import { type ApiAnswer, call } from '../../lib/typed-api';
import { TILE_SIZES, tileSources } from '../../lib/variants';

type VariantStats = ApiAnswer<'/v1/media/variants', 'get'>;

/** The media library: every image, search by file name, detail with variants, delete; the variant cache panel. */
export default component$(() => {
  const list = useStore<{ items: ImageDto[]; nextCursor: string | null; loading: boolean }>({
    items: [],
    nextCursor: null,
    loading: true,
  });
  const applied = useSignal('');
  const detail = useSignal<ImageDetailDto | null>(null);
  const stats = useSignal<VariantStats | null>(null);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);

  const load = $(async (q: string, cursor: string | null) => {
    list.loading = true;
    const res = await call('get', '/v1/media', { query: { limit: 24, ...(q && { q }), ...(cursor && { cursor }) } });
    list.loading = false;
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    list.items = cursor ? [...list.items, ...res.data.items] : res.data.items;
    list.nextCursor = res.data.nextCursor;
  });
  const loadStats = $(async () => {
    const res = await call('get', '/v1/media/variants');
    if (res.ok) stats.value = res.data;
  });

  useVisibleTask$(
    async ({ track }) => {
      const q = track(() => applied.value);
      error.value = null;
      await Promise.all([load(q, null), loadStats()]);
    },
    { strategy: 'document-ready' },
  );

  const open = $(async (id: string) => {
    const res = await call('get', '/v1/media/{id}', { path: { id } });
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    detail.value = res.data.image;
    setTimeout(() => document.getElementById('detail-heading')?.focus(), 0);
  });

  /** Closes the detail and gives focus back to the tile that opened it. */
  const close = $(() => {
    const id = detail.value?.id;
    detail.value = null;
    if (id) setTimeout(() => document.getElementById(`open-${id}`)?.focus(), 0);
  });

  // Escape closes the detail, wherever focus is, unless a question (delete?) is open: Escape cancels that first.
  useOnDocument(
    'keydown',
    $((e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !detail.value) return;
      if (e.target instanceof Element && e.target.closest('.confirm-ask')) return;
      void close();
    }),
  );

  const d = detail.value;
  // Variants only: until the server has said which widths it makes, a tile shows no picture, not the original.
  const tile = (img: ImageDto) => (stats.value ? tileSources(img, stats.value.presets) : null);
  return (
    <>
      <div class="page-head">
        <h1>Media</h1>
        <Link href="/media/purge" class="button">
          Purge settings and runs
        </Link>
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: Qwik's JSX has no <search> element yet; role="search" on the form is the long-supported equivalent */}
      <form
        class="toolbar"
        role="search"
        preventdefault:submit
        onSubmit$={(_, form) => (applied.value = String(new FormData(form).get('q') ?? '').trim())}
      >
        <label for="media-q">Search images</label>
        <input
          id="media-q"
          name="q"
          type="search"
          maxLength={48}
          placeholder="Name, alt text or caption"
          aria-describedby="media-q-hint"
        />
        <p class="hint" id="media-q-hint">
          Matches the file's name, its alt text and its caption.
        </p>
        <button type="submit" class="button">
          Search
        </button>
      </form>
      <FormError message={error.value} />
      <Status message={status.value} testId="media-status" />
      {d && (
        <ImageDetail
          image={d}
          onClose$={close}
          onSaved$={(image) => {
            detail.value = detail.value && { ...detail.value, ...image };
            list.items = list.items.map((x) => (x.id === image.id ? image : x));
          }}
          onDeleted$={async (id, filename) => {
            list.items = list.items.filter((x) => x.id !== id);
            status.value = `${filename} was deleted.`;
            detail.value = null;
            await loadStats();
          }}
          onError$={(message) => {
            error.value = message;
          }}
        />
      )}
      <ul class="media-grid" aria-label="Images" aria-busy={list.loading} data-testid="media-grid">
        {list.items.map((img) => (
          <li key={img.id} class="media-tile">
            <button
              type="button"
              id={`open-${img.id}`}
              class="media-open"
              onClick$={() => open(img.id)}
              aria-label={`Open ${img.originalName ?? img.filename}`}
            >
              {tile(img) && (
                <img
                  src={tile(img)!.src}
                  srcset={tile(img)!.srcset}
                  sizes={TILE_SIZES}
                  alt=""
                  width={img.width}
                  height={img.height}
                  loading="lazy"
                  decoding="async"
                />
              )}
            </button>
            <span class="media-name">{img.originalName ?? img.filename}</span>
            <span class="item-meta">
              {img.width}×{img.height}, {formatBytes(img.bytes)}
            </span>
          </li>
        ))}
      </ul>
      {list.loading && <LoadingNotice>Loading images…</LoadingNotice>}
      {!list.loading && list.items.length === 0 && (
        <p class="notice">{applied.value ? 'No image matches.' : 'No images yet.'}</p>
      )}
      {!list.loading && list.nextCursor && (
        <button type="button" class="button" onClick$={() => load(applied.value, list.nextCursor)}>
          Load more
        </button>
      )}
      <section class="card" aria-labelledby="cache-heading">
        <h2 id="cache-heading">Variant cache</h2>
        {stats.value ? (
          <p data-testid="variant-stats">
            {`${stats.value.count} variants, ${formatBytes(stats.value.bytes)}; preset widths ${stats.value.presets.join(', ')} px.`}
          </p>
        ) : (
          <LoadingNotice>Loading…</LoadingNotice>
        )}
        <ConfirmButton
          label="Empty the variant cache"
          question="Remove every cached variant? Originals stay."
          confirmLabel="Yes, empty it"
          danger
          onConfirm$={async () => {
            const res = await call('delete', '/v1/media/variants');
            if (!res.ok) {
              error.value = res.message;
              return;
            }
            status.value = 'The variant cache was emptied.';
            await loadStats();
          }}
        />
      </section>
    </>
  );
});

export const head: DocumentHead = { title: 'Media' };
