import { $, component$, type QRL, type Signal, useSignal } from '@builder.io/qwik';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { call } from '../../lib/typed-api';
import { FormError } from '../ui/form-error';

/** What a person calls an image: its alt text, else the name it was uploaded with, else the server's file name. */
const nameOf = (img: ImageDto) => img.alt || img.originalName || img.filename;

/** A thumbnail: `srcset` lists the server's small variants, so a tile loads a few kilobytes, not the original. */
const Thumb = (props: { img: ImageDto }) => (
  <img
    src={props.img.url}
    srcset={props.img.srcset || undefined}
    sizes="6rem"
    alt=""
    width={props.img.width}
    height={props.img.height}
    loading="lazy"
  />
);

/**
 * The feature image: the chosen one as a thumbnail, and a dialog to choose
 * from the article's images or the whole library (searchable), each a
 * thumbnail button named by its words. A library image of another article
 * is linked to this one first (`PUT /v1/articles/{id}/images/{imageId}`):
 * the API takes only the article's own images as its feature image.
 */
export const FeatureImagePicker = component$(
  (props: {
    articleId: string;
    featureImageId: Signal<string>;
    images: ImageDto[];
    /** After a library image was linked: the article's images are read again. */
    onLinked$: QRL<() => Promise<void>>;
  }) => {
    const dialog = useSignal<HTMLDialogElement>();
    const library = useSignal<ImageDto[]>([]);
    const error = useSignal<string | null>(null);
    const busy = useSignal(false);
    const chosen = props.images.find((i) => i.id === props.featureImageId.value);
    const own = new Set(props.images.map((i) => i.id));

    const search = $(async (q: string) => {
      const res = await call('get', '/v1/media', { query: { limit: 24, ...(q.trim() && { q: q.trim() }) } });
      if (res.ok) library.value = res.data.items;
      else error.value = `The library could not be read: ${res.message}`;
    });

    const choose = $(async (img: ImageDto) => {
      error.value = null;
      if (!props.images.some((i) => i.id === img.id)) {
        busy.value = true;
        const res = await call('put', '/v1/articles/{id}/images/{imageId}', {
          path: { id: props.articleId, imageId: img.id },
        });
        busy.value = false;
        if (!res.ok) {
          error.value = `${nameOf(img)} could not be added to this article: ${res.message}`;
          return;
        }
        await props.onLinked$();
      }
      props.featureImageId.value = img.id;
      dialog.value?.close();
    });

    const option = (img: ImageDto) => (
      <li key={img.id}>
        <button
          type="button"
          class="feature-option"
          aria-pressed={img.id === props.featureImageId.value}
          disabled={busy.value}
          onClick$={() => choose(img)}
        >
          <Thumb img={img} />
          <span>{nameOf(img)}</span>
        </button>
      </li>
    );

    const others = library.value.filter((i) => !own.has(i.id));
    return (
      <div class="stack">
        <span id="feature-image-label">Feature image</span>
        {chosen ? (
          <img
            class="feature-preview"
            src={chosen.url}
            srcset={chosen.srcset || undefined}
            sizes="240px"
            alt={chosen.alt}
            width={chosen.width}
            height={chosen.height}
            data-testid="feature-preview"
          />
        ) : (
          <p>None.</p>
        )}
        {chosen && <p>{nameOf(chosen)}</p>}
        <div class="actions">
          <button
            type="button"
            class="button"
            aria-describedby="feature-image-label"
            onClick$={async () => {
              error.value = null;
              dialog.value?.showModal();
              await search('');
            }}
          >
            Choose feature image…
          </button>
          {chosen && (
            <button type="button" class="button button-quiet" onClick$={() => (props.featureImageId.value = '')}>
              Remove feature image
            </button>
          )}
        </div>
        <dialog ref={dialog} class="dialog feature-dialog" aria-labelledby="feature-dialog-heading">
          <h2 id="feature-dialog-heading">Choose the feature image</h2>
          <h3 id="feature-own-heading">This article’s images</h3>
          {props.images.length === 0 ? (
            <p>None yet: upload one in the Images card, or choose one of the library.</p>
          ) : (
            <ul class="feature-options" aria-labelledby="feature-own-heading">
              {props.images.map(option)}
            </ul>
          )}
          <h3 id="feature-library-heading">Library</h3>
          <label for="feature-search">Search the library</label>
          <input id="feature-search" type="search" maxLength={48} onInput$={(_, el) => search(el.value)} />
          {others.length === 0 ? (
            <p>No other images.</p>
          ) : (
            <ul class="feature-options" aria-labelledby="feature-library-heading">
              {others.map(option)}
            </ul>
          )}
          <FormError message={error.value} />
          <div class="actions">
            <button type="button" class="button" onClick$={() => dialog.value?.close()}>
              Close
            </button>
          </div>
        </dialog>
      </div>
    );
  },
);
