import { $, component$, type QRL, type Signal, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type { DraftDto } from '../../../../worker/src/features/articles/article-draft.schema';
import { formatDateTime } from '../../lib/format';
import { type DiffLine, lineDiff } from '../../lib/line-diff';
import { call } from '../../lib/typed-api';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError } from '../ui/form-error';

/** What the list shows of a revision. */
type Item = { id: string; createdAt: string; title: string; version: number };

/**
 * The article's revisions (one per publication and update while online),
 * newest first: each can be compared with the text in the editor (line by
 * line) and restored, which makes the draft from it; the live article does
 * not change until "Update". Read when the panel is opened.
 */
export const RevisionsPanel = component$(
  (props: {
    articleId: string;
    /** The text in the editor, what a revision is compared with (read when asked: no render per keystroke). */
    body: Signal<string>;
    /** A restore made the draft: the editor takes it (and its ETag). */
    onRestored$: QRL<(draft: DraftDto, etag: string | null) => unknown>;
  }) => {
    const open = useSignal(false);
    const items = useSignal<Item[] | null>(null);
    const error = useSignal<string | null>(null);
    const compared = useSignal<{ id: string; lines: DiffLine[] | null } | null>(null);

    useVisibleTask$(async ({ track }) => {
      if (!track(() => open.value)) return;
      const res = await call('get', '/v1/articles/{id}/revisions', { path: { id: props.articleId } });
      if (res.ok) items.value = res.data.items;
      else error.value = res.message;
    });

    const compare = $(async (revisionId: string) => {
      error.value = null;
      const res = await call('get', '/v1/articles/{id}/revisions/{revisionId}', {
        path: { id: props.articleId, revisionId },
      });
      if (!res.ok) {
        error.value = res.message;
        return;
      }
      compared.value = { id: revisionId, lines: lineDiff(res.data.revision.body, props.body.value) };
    });

    const restore = $(async (revisionId: string) => {
      error.value = null;
      const res = await call('post', '/v1/articles/{id}/revisions/{revisionId}/restore', {
        path: { id: props.articleId, revisionId },
      });
      if (!res.ok) {
        error.value = res.message;
        return;
      }
      compared.value = null;
      if (res.data) await props.onRestored$(res.data.draft, res.etag ?? null);
    });

    return (
      <section class="card" aria-labelledby="revisions-heading" data-testid="revisions">
        <h2 id="revisions-heading">Revisions</h2>
        <button type="button" class="button" aria-expanded={open.value} onClick$={() => (open.value = !open.value)}>
          {open.value ? 'Hide revisions' : 'Show revisions'}
        </button>
        <FormError message={error.value} />
        {open.value && items.value?.length === 0 && <p class="hint">None yet: one is kept each time it goes online.</p>}
        {open.value && !!items.value?.length && (
          <ul class="item-list">
            {items.value.map((r) => (
              <li key={r.id} class="item">
                <span>{r.title}</span>
                <span class="item-meta">
                  <time dateTime={r.createdAt}>{formatDateTime(r.createdAt)}</time>
                  {` · version ${r.version}`}
                </span>
                <span class="actions">
                  <button type="button" class="button button-quiet" onClick$={() => compare(r.id)}>
                    Compare with the text
                  </button>
                  <ConfirmButton
                    label="Restore"
                    question="Make a draft from this revision? The live article stays until Update."
                    confirmLabel="Yes, restore"
                    onConfirm$={() => restore(r.id)}
                  />
                </span>
                {compared.value?.id === r.id && (
                  <div class="revision-diff" data-testid="revision-diff">
                    {compared.value.lines === null ? (
                      <p>Too long to compare here.</p>
                    ) : (
                      compared.value.lines.map((l, i) =>
                        l.kind === 'same' ? (
                          <div key={i}>{l.text || ' '}</div>
                        ) : l.kind === 'removed' ? (
                          <del key={i}>{l.text || ' '}</del>
                        ) : (
                          <ins key={i}>{l.text || ' '}</ins>
                        ),
                      )
                    )}
                  </div>
                )}
              </li>
            ))}
          </ul>
        )}
      </section>
    );
  },
);
