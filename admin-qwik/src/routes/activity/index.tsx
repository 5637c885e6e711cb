import { $, component$, useContext, useSignal, useStore, useVisibleTask$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { ActionChart, DayChart } from '../../components/activity/activity-charts';
import { type ExportFormat, ExportMenu } from '../../components/activity/export-menu';
import { LoadingNotice } from '../../components/status/loading-notice';
import { FormError, Status } from '../../components/ui/form-error';
import {
  type ActivityEntryDto,
  type ActivityFilters,
  type ActivitySummaryDto,
  detailsText,
  filterQuery,
  NO_FILTERS,
} from '../../lib/activity';
import { actionLabel } from '../../lib/activity-labels';
import { formatBytes, formatDateTime } from '../../lib/format';
import { SessionContext } from '../../lib/session';
import { call, download } from '../../lib/typed-api';

const PAGE_SIZE = 25;

/** The activity log: filters, summary with two small charts, the entries page by page, export. */
export default component$(() => {
  const session = useContext(SessionContext);
  const filters = useSignal<ActivityFilters>(NO_FILTERS);
  const list = useStore<{ items: ActivityEntryDto[]; nextCursor: string | null; loading: boolean }>({
    items: [],
    nextCursor: null,
    loading: true,
  });
  const summary = useSignal<ActivitySummaryDto | null>(null);
  const people = useStore<Record<string, string>>({});
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const exporting = useSignal(false);
  // Every action and person seen in a summary: the filter menus keep them while a filter narrows the summary.
  const known = useStore<{ actions: string[]; actors: { type: 'user' | 'apiKey' | 'system'; id: string }[] }>({
    actions: [],
    actors: [],
  });

  const load = $(async (f: ActivityFilters, cursor: string | null) => {
    const built = filterQuery(f);
    if ('problem' in built) {
      error.value = built.problem;
      list.loading = false;
      return;
    }
    list.loading = true;
    const [page, sum] = await Promise.all([
      call('get', '/v1/activity', {
        query: { ...built.query, limit: PAGE_SIZE, ...(cursor && { cursor }) },
      }),
      cursor ? Promise.resolve(null) : call('get', '/v1/activity/summary', { query: built.query }),
    ]);
    if (f !== filters.value) return; // newer filters won
    list.loading = false;
    if (!page.ok) {
      error.value =
        page.status === 400 && page.issues.length ? page.issues.map((i) => i.message).join(' ') : page.message;
      return;
    }
    error.value = null;
    list.items = cursor ? [...list.items, ...page.data.items] : page.data.items;
    list.nextCursor = page.data.nextCursor;
    if (sum) {
      if (sum.ok) {
        summary.value = sum.data;
        known.actions = [...new Set([...known.actions, ...sum.data.byAction.map((a) => a.action)])].sort();
        for (const a of sum.data.byActor) {
          if (a.actorId && !known.actors.some((k) => k.id === a.actorId))
            known.actors = [...known.actors, { type: a.actorType, id: a.actorId }];
        }
      } else error.value = sum.message;
    }
  });

  useVisibleTask$(
    async ({ track }) => {
      const f = track(() => filters.value);
      await load(f, null);
    },
    { strategy: 'document-ready' },
  );

  // Names for the people in the log (the owner may list users; others see short ids).
  useVisibleTask$(
    async ({ track }) => {
      const role = track(() => session.user?.role);
      if (session.user) people[session.user.id] = session.user.displayName || session.user.email;
      if (role !== 'owner') return;
      const res = await call('get', '/v1/user', { query: { limit: 100 } });
      if (res.ok) for (const u of res.data.items) people[u.id] = u.displayName || u.email;
    },
    { strategy: 'document-ready' },
  );

  const actorName = (type: string, id: string | null) =>
    type === 'system'
      ? 'system'
      : id
        ? (people[id] ?? `${type === 'apiKey' ? 'API key' : 'user'} ${id.slice(0, 8)}…`)
        : 'anonymous';

  const exportAs = $(async (format: ExportFormat) => {
    const built = filterQuery(filters.value);
    if ('problem' in built) {
      error.value = built.problem;
      return;
    }
    exporting.value = true;
    status.value = `Preparing the ${format.toUpperCase()} export…`;
    const res = await download('/v1/activity/export', { ...built.query, format });
    exporting.value = false;
    if (!res.ok) {
      status.value = null;
      error.value = `The export failed: ${res.message}`;
      return;
    }
    status.value = `Downloaded ${res.data.filename} (${formatBytes(res.data.bytes)}).`;
  });

  const f = filters.value;
  const s = summary.value;
  return (
    <>
      <div class="page-head">
        <h1>Activity</h1>
        <ExportMenu onExport$={exportAs} busy={exporting.value} />
      </div>
      {/* biome-ignore lint/a11y/useSemanticElements: Qwik's JSX has no <search> element yet; role="search" on the form is the long-supported equivalent */}
      <form
        class="filters"
        role="search"
        aria-label="Filter the activity log"
        preventdefault:submit
        onSubmit$={(_, form) => {
          const data = new FormData(form);
          const value = (name: string) => String(data.get(name) ?? '').trim();
          filters.value = {
            action: value('action'),
            actorId: value('actorId'),
            fromDay: value('fromDay'),
            toDay: value('toDay'),
          };
        }}
      >
        <div class="field">
          <label for="filter-action">Action</label>
          <select id="filter-action" name="action" value={f.action}>
            <option value="">Any action</option>
            {known.actions.map((a) => (
              <option key={a} value={a}>
                {actionLabel(a)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-actor">Who</label>
          <select id="filter-actor" name="actorId" value={f.actorId}>
            <option value="">Anyone</option>
            {known.actors.map((a) => (
              <option key={a.id} value={a.id}>
                {actorName(a.type, a.id)}
              </option>
            ))}
          </select>
        </div>
        <div class="field">
          <label for="filter-from">From (UTC day)</label>
          <input id="filter-from" name="fromDay" type="date" value={f.fromDay} />
        </div>
        <div class="field">
          <label for="filter-to">To (UTC day, included)</label>
          <input id="filter-to" name="toDay" type="date" value={f.toDay} />
        </div>
        <div class="actions">
          <button type="submit" class="button button-primary">
            Apply filters
          </button>
          <button
            type="reset"
            class="button button-quiet"
            onClick$={() => {
              filters.value = { ...NO_FILTERS };
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <FormError message={error.value} />
      <Status message={status.value} testId="activity-status" />

      <section class="card" aria-labelledby="summary-heading" data-testid="activity-summary">
        <h2 id="summary-heading">Summary</h2>
        {!s ? (
          <LoadingNotice>Loading the summary…</LoadingNotice>
        ) : (
          <>
            <p data-testid="activity-total">
              {`${s.total} ${s.total === 1 ? 'entry' : 'entries'}${s.from || s.to ? ' in this period' : ''}. The log holds ${formatBytes(s.sizeBytes)} of at most ${formatBytes(s.maxBytes)}; the oldest entries go first.`}
            </p>
            <meter class="log-meter" min={0} max={s.maxBytes} value={s.sizeBytes} aria-label="Activity log size" />
            <div class="charts">
              <div>
                <h3>By day</h3>
                <DayChart byDay={s.byDay} />
              </div>
              <div>
                <h3>By action</h3>
                <ActionChart byAction={s.byAction} />
              </div>
            </div>
          </>
        )}
      </section>

      <section class="card" aria-labelledby="entries-heading">
        <h2 id="entries-heading">Entries</h2>
        <ul class="item-list" aria-busy={list.loading} data-testid="activity-list">
          {list.items.map((e) => (
            <li key={e.id} class="item item-activity">
              <span class="activity-action" title={e.action} data-action={e.action}>
                {actionLabel(e.action)}
              </span>
              <span>{actorName(e.actorType, e.actorId)}</span>
              <span class="item-meta">
                <time dateTime={e.at}>{formatDateTime(e.at)}</time>
                {e.ip ? ` · ${e.ip}` : ''}
                {e.subjectType ? ` · ${e.subjectType} ${e.subjectId ? `${e.subjectId.slice(0, 8)}…` : ''}` : ''}
              </span>
              {e.details && <span class="activity-details">{detailsText(e.details)}</span>}
            </li>
          ))}
        </ul>
        {list.loading && <LoadingNotice>Loading entries…</LoadingNotice>}
        {!list.loading && list.items.length === 0 && !error.value && <p class="notice">No entries match.</p>}
        {!list.loading && list.nextCursor && (
          <button type="button" class="button" onClick$={() => load(filters.value, list.nextCursor)}>
            Load more entries
          </button>
        )}
      </section>
    </>
  );
});

export const head: DocumentHead = { title: 'Activity' };
