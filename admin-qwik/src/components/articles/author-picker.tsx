import { $, component$, type Signal, useSignal } from '@builder.io/qwik';
import type { AuthorDto } from '../../lib/catalog';

/**
 * The article's authors, in order: add from the catalogue, move up or down,
 * remove. Plain buttons, so every step works from the keyboard; focus stays
 * on the moved author's buttons.
 */
export const AuthorPicker = component$((props: { authors: AuthorDto[]; selected: Signal<string[]> }) => {
  const choice = useSignal('');
  const nameOf = (id: string) => props.authors.find((a) => a.id === id)?.name ?? `Unknown author (${id.slice(0, 8)}…)`;
  const available = props.authors.filter((a) => !props.selected.value.includes(a.id));

  const move = $((index: number, by: -1 | 1, focusId: string) => {
    const next = [...props.selected.value];
    const [id] = next.splice(index, 1);
    next.splice(index + by, 0, id!);
    props.selected.value = next;
    setTimeout(() => document.getElementById(focusId)?.focus(), 0);
  });

  return (
    <fieldset class="fieldset field" aria-describedby="authors-hint">
      <legend class="label-like">Authors</legend>
      <p class="hint" id="authors-hint">
        In the order they are credited.
      </p>
      {props.selected.value.length === 0 ? (
        <p>No authors.</p>
      ) : (
        <ol class="author-order" data-testid="article-authors">
          {props.selected.value.map((id, i) => (
            <li key={id}>
              <span class="author-name">{nameOf(id)}</span>
              <span class="author-buttons">
                <button
                  type="button"
                  class="button button-quiet"
                  id={`author-up-${id}`}
                  aria-label={`Move ${nameOf(id)} up`}
                  disabled={i === 0}
                  onClick$={() => move(i, -1, i - 1 === 0 ? `author-down-${id}` : `author-up-${id}`)}
                >
                  ↑
                </button>
                <button
                  type="button"
                  class="button button-quiet"
                  id={`author-down-${id}`}
                  aria-label={`Move ${nameOf(id)} down`}
                  disabled={i === props.selected.value.length - 1}
                  onClick$={() =>
                    move(i, 1, i + 1 === props.selected.value.length - 1 ? `author-up-${id}` : `author-down-${id}`)
                  }
                >
                  ↓
                </button>
                <button
                  type="button"
                  class="button button-quiet"
                  aria-label={`Remove ${nameOf(id)}`}
                  onClick$={() => {
                    props.selected.value = props.selected.value.filter((x) => x !== id);
                    setTimeout(() => document.getElementById('author-add')?.focus(), 0);
                  }}
                >
                  Remove
                </button>
              </span>
            </li>
          ))}
        </ol>
      )}
      {props.authors.length === 0 ? (
        <p class="hint">
          No authors yet: add them on the <a href="/authors">Authors</a> screen.
        </p>
      ) : (
        <div class="inline-form">
          <label for="author-add">Add an author</label>
          <select
            id="author-add"
            value={choice.value}
            onChange$={(_, el) => (choice.value = el.value)}
            disabled={available.length === 0}
          >
            <option value="">Choose…</option>
            {available.map((a) => (
              <option key={a.id} value={a.id}>
                {a.name}
              </option>
            ))}
          </select>
          <button
            type="button"
            class="button"
            disabled={available.length === 0}
            onClick$={() => {
              const el = document.getElementById('author-add') as HTMLSelectElement;
              const id = el.value || choice.value;
              if (!id || props.selected.value.includes(id)) return;
              props.selected.value = [...props.selected.value, id];
              choice.value = '';
              el.value = '';
            }}
          >
            Add author
          </button>
        </div>
      )}
    </fieldset>
  );
});
