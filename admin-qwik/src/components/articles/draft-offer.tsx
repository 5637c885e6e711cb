import { component$, type QRL } from '@builder.io/qwik';
import type { LocalDraft } from '../../lib/draft-store';
import { formatDateTime } from '../../lib/format';

/**
 * A draft this browser kept (after a crash, a reload, a closed tab or an
 * expired session) that differs from what the server has: restore it into
 * the editor, or throw it away.
 */
export const DraftOffer = component$(
  (props: { draft: LocalDraft; onRestore$: QRL<() => unknown>; onDiscard$: QRL<() => unknown> }) => {
    const when = new Date(props.draft.savedAt).toISOString();
    return (
      <section class="card draft-offer" aria-labelledby="draft-offer-heading" data-testid="draft-offer">
        <h2 id="draft-offer-heading">Unsaved changes were kept in this browser</h2>
        <p>
          {`“${props.draft.fields.title || 'Untitled'}”, `}
          <time dateTime={when}>{formatDateTime(when)}</time>
          {`, ${props.draft.fields.body.length} characters of text. They are not on the server.`}
        </p>
        <div class="actions">
          <button type="button" class="button button-primary" onClick$={props.onRestore$}>
            Restore them
          </button>
          <button type="button" class="button" onClick$={props.onDiscard$}>
            Discard them
          </button>
        </div>
      </section>
    );
  },
);
