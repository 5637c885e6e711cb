import { component$, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { formatDateTime } from '../../lib/format';
import { call } from '../../lib/typed-api';
import { LoadingNotice } from '../status/loading-notice';
import { FormError } from '../ui/form-error';

/** How many articles each list shows; "All articles" has the rest. */
const SHOWN = 5;

/** What the lists show of an article. */
type Item = { id: string; title: string; status: string; updatedAt: string; scheduledAt: string | null };
type Overview = { drafts: Item[]; scheduled: Item[]; recent: Item[] };

/**
 * The dashboard's articles: a New article button, drafts (offline and not
 * scheduled), scheduled ones (soonest first) and the recently edited. Three
 * reads of the list, each filtered by the API (`scheduled=`), so no draft or
 * scheduled article is missed behind a page of others.
 */
export const ArticleOverview = component$(() => {
  const data = useSignal<Overview | null>(null);
  const error = useSignal<string | null>(null);

  useVisibleTask$(
    async () => {
      const [recent, drafts, scheduled] = await Promise.all([
        call('get', '/v1/articles', { query: { sort: 'updatedAt', order: 'desc', limit: SHOWN } }),
        call('get', '/v1/articles', {
          query: { status: 'offline', scheduled: 'false', sort: 'updatedAt', order: 'desc', limit: SHOWN },
        }),
        // The list has no sort by scheduledAt: the soonest are picked from up to 100.
        call('get', '/v1/articles', { query: { scheduled: 'true', limit: 100 } }),
      ]);
      if (!recent.ok || !drafts.ok || !scheduled.ok) {
        error.value = [recent, drafts, scheduled].map((r) => (r.ok ? null : r.message)).find(Boolean) ?? null;
        return;
      }
      // Whole items: only a `fields=` list trims them, and none is sent here.
      data.value = {
        recent: recent.data.items as Item[],
        drafts: drafts.data.items as Item[],
        scheduled: (scheduled.data.items as Item[])
          .sort((a, b) => (a.scheduledAt ?? '').localeCompare(b.scheduledAt ?? ''))
          .slice(0, SHOWN),
      };
    },
    { strategy: 'document-ready' },
  );

  const d = data.value;
  const list = (id: string, heading: string, items: Item[], empty: string, when: (a: Item) => string) => (
    <div>
      <h3 id={id}>{heading}</h3>
      {items.length === 0 ? (
        <p class="hint">{empty}</p>
      ) : (
        <ul class="item-list" aria-labelledby={id}>
          {items.map((a) => (
            <li key={a.id} class="item">
              {/* A full load: the editor takes its id from the query (see the README's rules). */}
              <a href={`/articles/edit?id=${encodeURIComponent(a.id)}`}>{a.title}</a>
              <span class="item-meta">{when(a)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
  return (
    <section class="card" aria-labelledby="articles-overview-heading" data-testid="article-overview">
      <div class="page-head">
        <h2 id="articles-overview-heading">Articles</h2>
        <a href="/articles/new" class="button button-primary">
          New article
        </a>
      </div>
      <FormError message={error.value} />
      {!d && !error.value && <LoadingNotice>Loading the articles…</LoadingNotice>}
      {d && (
        <div class="overview-lists">
          {list('overview-drafts', 'Drafts', d.drafts, 'No drafts.', (a) => `Edited ${formatDateTime(a.updatedAt)}`)}
          {list(
            'overview-scheduled',
            'Scheduled',
            d.scheduled,
            'Nothing scheduled.',
            (a) => `Goes online ${formatDateTime(a.scheduledAt ?? '')}`,
          )}
          {list('overview-recent', 'Recently edited', d.recent, 'No articles yet.', (a) =>
            a.status === 'online' ? 'Published' : 'Draft',
          )}
        </div>
      )}
    </section>
  );
});
