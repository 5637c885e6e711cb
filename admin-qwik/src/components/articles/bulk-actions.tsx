import { $, component$, type QRL } from '@builder.io/qwik';
import { call } from '../../lib/typed-api';
import { ConfirmButton } from '../ui/confirm-button';

export interface Selected {
  id: string;
  title: string;
}

type Action = 'publish' | 'unpublish' | 'delete';

const DONE: Record<Action, string> = { publish: 'published', unpublish: 'unpublished', delete: 'deleted' };
const plural = (n: number) => (n === 1 ? '1 article' : `${n} articles`);

async function run(action: Action, id: string) {
  if (action === 'delete') return call('delete', '/v1/articles/{id}', { path: { id } });
  if (action === 'publish') return call('post', '/v1/articles/{id}/publish', { path: { id } });
  return call('post', '/v1/articles/{id}/unpublish', { path: { id } });
}

/**
 * Publish, unpublish or delete the selected articles, each after a question
 * that names how many. One request per article, in turn; the outcome names
 * what failed and why, and the list reloads either way.
 */
export const BulkActions = component$(
  (props: { selected: Selected[]; onDone$: QRL<(message: string, failed: boolean) => void> }) => {
    const n = props.selected.length;
    const apply = $(async (action: Action) => {
      const failures: string[] = [];
      for (const article of props.selected) {
        const res = await run(action, article.id);
        if (!res.ok) failures.push(`“${article.title}”: ${res.message}`);
      }
      const done = n - failures.length;
      const head = `${plural(done)} ${DONE[action]}.`;
      await props.onDone$(
        failures.length ? `${head} Not ${DONE[action]}: ${failures.join('; ')}` : head,
        failures.length > 0,
      );
    });
    return (
      // biome-ignore lint/a11y/useSemanticElements: a row of buttons about the selection, not a form's fieldset
      <div class="bulk-bar" role="group" aria-label="Selected articles" data-testid="bulk-bar">
        <span class="bulk-count">{n === 0 ? 'None selected' : `${plural(n)} selected`}</span>
        <ConfirmButton
          label="Publish"
          question={`Publish ${plural(n)}?`}
          confirmLabel="Yes, publish"
          disabled={n === 0}
          onConfirm$={() => apply('publish')}
        />
        <ConfirmButton
          label="Unpublish"
          question={`Take ${plural(n)} offline?`}
          confirmLabel="Yes, unpublish"
          disabled={n === 0}
          onConfirm$={() => apply('unpublish')}
        />
        <ConfirmButton
          label="Delete"
          question={`Delete ${plural(n)} and their images for good?`}
          confirmLabel="Yes, delete"
          danger
          disabled={n === 0}
          onConfirm$={() => apply('delete')}
        />
      </div>
    );
  },
);
