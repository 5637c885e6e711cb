import { $, component$, type Signal, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type { TagDto, TagRef } from '../../../../worker/src/features/tags/tags.schema';
import { call, type Result } from '../../lib/typed-api';

/** Every tag, up to `max` (the suggestions); a small catalogue, read a page of 100 at a time. */
async function allTags(max = 1000): Promise<{ items: TagDto[]; error: string | null }> {
  const items: TagDto[] = [];
  let cursor: string | null = null;
  do {
    const res: Result<{ items: TagDto[]; nextCursor: string | null }> = await call('get', '/v1/tags', {
      query: cursor ? { limit: 100, cursor } : { limit: 100 },
    });
    if (!res.ok) return { items, error: res.message };
    items.push(...res.data.items);
    cursor = res.data.nextCursor;
  } while (cursor && items.length < max);
  return { items, error: null };
}

const same = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'accent' }) === 0;

/**
 * The article's tags, in order: type a name (suggestions from every tag), and
 * an existing tag is added, a new one created first. Enter adds without
 * saving the article; each tag has its own Remove button. The editor keeps
 * them in its fields (`ArticleFields.tags`) and sends their ids as `tagIds`.
 */
export const TagPicker = component$((props: { selected: Signal<TagRef[]> }) => {
  const tags = useSignal<TagDto[]>([]);
  const message = useSignal<string | null>(null);
  const busy = useSignal(false);
  const input = useSignal<HTMLInputElement>();
  const addButton = useSignal<HTMLButtonElement>();

  useVisibleTask$(
    async ({ cleanup }) => {
      // Enter would submit the editor's form (and save the article): here it adds the tag.
      const onKey = (e: KeyboardEvent) => {
        if (e.key !== 'Enter') return;
        e.preventDefault();
        addButton.value?.click();
      };
      input.value?.addEventListener('keydown', onKey);
      cleanup(() => input.value?.removeEventListener('keydown', onKey));
      const res = await allTags();
      tags.value = res.items;
      if (res.error) message.value = `Tags could not be loaded: ${res.error}`;
    },
    { strategy: 'document-ready' },
  );

  const add = $(async () => {
    const el = input.value;
    const text = el?.value.trim() ?? '';
    message.value = null;
    if (!el || text === '') return;
    let tag: TagRef | undefined = tags.value.find((t) => same(t.name, text) || t.slug === text);
    if (!tag) {
      busy.value = true;
      const res = await call('post', '/v1/tags', { body: { name: text } });
      busy.value = false;
      if (!res.ok) {
        message.value = `The tag “${text}” could not be created: ${res.issues[0]?.message ?? res.message}`;
        return;
      }
      tags.value = [res.data.tag, ...tags.value];
      tag = res.data.tag;
    }
    const { id, name, slug } = tag;
    if (props.selected.value.some((t) => t.id === id)) message.value = `${name} is already a tag of this article.`;
    else props.selected.value = [...props.selected.value, { id, name, slug }];
    el.value = '';
    el.focus();
  });

  const chosen = new Set(props.selected.value.map((t) => t.id));
  return (
    <fieldset class="fieldset field" aria-describedby="tags-hint">
      <legend class="label-like">Tags</legend>
      <p class="hint" id="tags-hint">
        In the order sites show them. A name that is not a tag yet becomes one.
      </p>
      {props.selected.value.length === 0 ? (
        <p>No tags.</p>
      ) : (
        <ol class="author-order" data-testid="article-tags">
          {props.selected.value.map((t) => (
            <li key={t.id}>
              <span class="author-name">{t.name}</span>
              <button
                type="button"
                class="button button-quiet"
                aria-label={`Remove the tag ${t.name}`}
                onClick$={() => {
                  props.selected.value = props.selected.value.filter((x) => x.id !== t.id);
                  input.value?.focus();
                }}
              >
                Remove
              </button>
            </li>
          ))}
        </ol>
      )}
      <div class="inline-form">
        <label for="tag-add">Add a tag</label>
        {/* `list` is missing from Qwik's input attribute types. */}
        <input ref={input} id="tag-add" type="text" autoComplete="off" maxLength={200} {...{ list: 'tag-options' }} />
        <datalist id="tag-options">
          {tags.value
            .filter((t) => !chosen.has(t.id))
            .map((t) => (
              <option key={t.id} value={t.name} />
            ))}
        </datalist>
        <button ref={addButton} type="button" class="button" disabled={busy.value} onClick$={add}>
          Add tag
        </button>
      </div>
      {message.value && (
        <p class="field-error" role="alert">
          {message.value}
        </p>
      )}
    </fieldset>
  );
});
