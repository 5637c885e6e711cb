import { $, component$, useSignal, useStore, useTask$, useVisibleTask$ } from '@builder.io/qwik';
import {
  CATALOGS,
  type CatalogDef,
  type CatalogItem,
  type CatalogKind,
  detailOf,
  type FieldDef,
  titleOf,
} from '../../lib/catalog';
import { fieldNotes, inFormWords, loadRules, toBody } from '../../lib/catalog-form';
import { formatDateTime } from '../../lib/format';
import type { Issue } from '../../lib/typed-api';
import { LoadingNotice } from '../status/loading-notice';
import { ConfirmButton } from '../ui/confirm-button';
import { FormError, Status } from '../ui/form-error';
import { catalogApi } from './catalog-api';
import { Fields } from './catalog-fields';

const PAGE_SIZE = 20;

function formValues(form: HTMLFormElement): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of new FormData(form)) out[k] = typeof v === 'string' ? v : '';
  return out;
}

/** Messages of issues that no field shows, plus the API's message. */
function summary(message: string, issues: Issue[], fields: readonly FieldDef[]): string {
  const loose = issues.filter((i) => !fields.some((f) => f.name === i.path)).map((i) => i.message);
  return issues.length ? ['Please correct the marked fields.', ...loose].join(' ') : message;
}

/** A catalogue (lib/catalog.ts): list with paging, create, edit in place, delete with confirmation (409 explained). */
export const CatalogScreen = component$((props: { kind: CatalogKind }) => {
  const def: CatalogDef = CATALOGS[props.kind];
  const list = useStore<{ items: CatalogItem[]; nextCursor: string | null; loading: boolean }>({
    items: [],
    nextCursor: null,
    loading: true,
  });
  const editing = useSignal<string | null>(null);
  const createIssues = useSignal<Issue[]>([]);
  const editIssues = useSignal<Issue[]>([]);
  const createError = useSignal<string | null>(null);
  const error = useSignal<string | null>(null);
  const status = useSignal<string | null>(null);
  const busy = useSignal(false);
  const createNotes = useSignal<Record<string, string>>({});
  const editNotes = useSignal<Record<string, string>>({});

  // On the server, so the page is drawn with the notes of the empty form.
  useTask$(async () => {
    createNotes.value = await fieldNotes(props.kind, {});
  });

  const load = $(async (cursor: string | null) => {
    list.loading = true;
    const res = await catalogApi(props.kind).list({ limit: PAGE_SIZE, ...(cursor && { cursor }) });
    list.loading = false;
    if (!res.ok) {
      error.value = res.message;
      return;
    }
    list.items = cursor ? [...list.items, ...res.data.items] : res.data.items;
    list.nextCursor = res.data.nextCursor;
  });

  useVisibleTask$(
    () => {
      void load(null);
      // The API's rules (and zod) for the first check, fetched ahead instead of on the first submit.
      void loadRules(props.kind);
    },
    { strategy: 'document-ready' },
  );

  const focusLater = $((id: string) => setTimeout(() => document.getElementById(id)?.focus(), 0));

  return (
    <>
      <h1>{def.title}</h1>
      <section class="card" aria-labelledby="list-heading">
        <h2 id="list-heading">All {def.title.toLowerCase()}</h2>
        <FormError message={error.value} />
        <Status message={status.value} testId="catalog-status" />
        <ul class="item-list" aria-busy={list.loading} data-testid="catalog-list">
          {list.items.map((item) => (
            <li key={item.id} class="item item-catalog">
              {editing.value === item.id ? (
                <form
                  class="stack catalog-edit"
                  noValidate
                  aria-label={`Edit ${titleOf(def, item)}`}
                  preventdefault:submit
                  onInput$={async (_, form) => {
                    editNotes.value = await fieldNotes(props.kind, formValues(form));
                  }}
                  onKeyDown$={(e) => {
                    if (e.key === 'Escape') {
                      editing.value = null;
                      void focusLater(`edit-${item.id}`);
                    }
                  }}
                  onSubmit$={async (_, form) => {
                    const d = CATALOGS[props.kind];
                    error.value = null;
                    status.value = null;
                    const checked = await toBody(props.kind, formValues(form), false);
                    if ('issues' in checked) {
                      editIssues.value = checked.issues;
                      await focusLater(`e-${item.id}-${checked.issues[0]?.path ?? d.fields[0]?.name}`);
                      return;
                    }
                    const res = await catalogApi(props.kind).update(item.id, checked.body);
                    if (!res.ok) {
                      const said = inFormWords(props.kind, res);
                      editIssues.value = said.issues;
                      error.value = summary(said.message, said.issues, d.fields);
                      return;
                    }
                    const saved = res.data;
                    list.items = list.items.map((x) => (x.id === item.id ? saved : x));
                    editIssues.value = [];
                    editing.value = null;
                    status.value = `${titleOf(d, saved)} was saved.`;
                    await focusLater(`edit-${item.id}`);
                  }}
                >
                  <Fields
                    fields={def.fields}
                    prefix={`e-${item.id}`}
                    values={item}
                    issues={editIssues.value}
                    notes={editNotes.value}
                  />
                  <div class="actions">
                    <button type="submit" class="button button-primary">
                      Save
                    </button>
                    <button
                      type="button"
                      class="button button-quiet"
                      onClick$={() => {
                        editing.value = null;
                        editIssues.value = [];
                        void focusLater(`edit-${item.id}`);
                      }}
                    >
                      Cancel
                    </button>
                  </div>
                </form>
              ) : (
                <>
                  <div class="catalog-text">
                    <strong class="item-title">{titleOf(def, item)}</strong>
                    <code class="catalog-meta">{String(item[def.metaField] ?? '')}</code>
                    {typeof detailOf(def, item) === 'string' && <p class="hint">{String(detailOf(def, item))}</p>}
                    <span class="item-meta">
                      Created <time dateTime={item.createdAt}>{formatDateTime(item.createdAt)}</time>
                    </span>
                  </div>
                  <div class="actions">
                    <button
                      type="button"
                      class="button"
                      id={`edit-${item.id}`}
                      aria-label={`Edit ${titleOf(def, item)}`}
                      onClick$={async () => {
                        editIssues.value = [];
                        editNotes.value = await fieldNotes(props.kind, item);
                        editing.value = item.id;
                        void focusLater(`e-${item.id}-${CATALOGS[props.kind].fields[0]?.name}`);
                      }}
                    >
                      Edit
                    </button>
                    <ConfirmButton
                      label="Delete"
                      question={`Delete the ${def.noun} ${titleOf(def, item)}?`}
                      confirmLabel="Yes, delete"
                      danger
                      onConfirm$={async () => {
                        const title = titleOf(CATALOGS[props.kind], item);
                        status.value = null;
                        const res = await catalogApi(props.kind).remove(item.id);
                        if (!res.ok) {
                          const { message } = inFormWords(props.kind, res);
                          error.value = res.status === 409 ? `${title} was not deleted: ${message}` : message;
                          return;
                        }
                        error.value = null;
                        list.items = list.items.filter((x) => x.id !== item.id);
                        status.value = `${title} was deleted.`;
                      }}
                    />
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
        {list.loading && <LoadingNotice>Loading {def.title.toLowerCase()}…</LoadingNotice>}
        {!list.loading && list.items.length === 0 && <p class="notice">No {def.title.toLowerCase()} yet.</p>}
        {!list.loading && list.nextCursor && (
          <button type="button" class="button" onClick$={() => load(list.nextCursor)}>
            Load more {def.title.toLowerCase()}
          </button>
        )}
      </section>
      <section class="card" aria-labelledby="create-heading">
        <h2 id="create-heading">New {def.noun}</h2>
        <form
          class="stack"
          noValidate
          preventdefault:submit
          onInput$={async (_, form) => {
            createNotes.value = await fieldNotes(props.kind, formValues(form));
          }}
          onSubmit$={async (_, form) => {
            const d = CATALOGS[props.kind];
            createError.value = null;
            status.value = null;
            const checked = await toBody(props.kind, formValues(form), true);
            if ('issues' in checked) {
              createIssues.value = checked.issues;
              createError.value = summary('', checked.issues, d.fields);
              await focusLater(`new-${checked.issues[0]?.path ?? d.fields[0]?.name}`);
              return;
            }
            busy.value = true;
            const res = await catalogApi(props.kind).create(checked.body);
            busy.value = false;
            if (!res.ok) {
              const said = inFormWords(props.kind, res);
              createIssues.value = said.issues;
              createError.value = summary(said.message, said.issues, d.fields);
              return;
            }
            const item = res.data;
            createIssues.value = [];
            list.items = [item, ...list.items.filter((x) => x.id !== item.id)];
            form.reset();
            status.value = `${titleOf(d, item)} was created.`;
            createNotes.value = await fieldNotes(props.kind, {});
          }}
        >
          <Fields fields={def.fields} prefix="new" values={{}} issues={createIssues.value} notes={createNotes.value} />
          <FormError message={createError.value} />
          <button type="submit" class="button button-primary" disabled={busy.value}>
            Create {def.noun}
          </button>
        </form>
      </section>
    </>
  );
});
