import { $, useContext, useSignal, useStore } from '@builder.io/qwik';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { type ArticleFields, EMPTY_FIELDS } from '../../lib/article-fields';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { draftKey, type LocalDraft } from '../../lib/draft-store';
import { SessionContext } from '../../lib/session';
import { call } from '../../lib/typed-api';
import type { Conflict } from './conflict-panel';
import type { SaveStateName } from './save-state';

/**
 * The editor's state (one signal per field, and what the server has) and the
 * small functions every part of the editor shares: the fields as they are
 * now, filling them, the local draft's key, the article's images.
 */
export function useEditorState(isNew: boolean) {
  const session = useContext(SessionContext);
  const s = {
    id: useSignal<string | null>(null),
    loading: useSignal(!isNew),
    loadError: useSignal<string | null>(null),
    article: useSignal<ArticleDto | null>(null),
    etag: useSignal<string | null>(null),
    /** The article has a pending draft (an online article's saves go there): its ETag, apart from the article's. */
    hasDraft: useSignal(false),
    draftEtag: useSignal<string | null>(null),
    /** The fields as the server has them (what changes are measured against). */
    base: useSignal<ArticleFields>(EMPTY_FIELDS),
    title: useSignal(''),
    /**
     * What the title field is set to when the editor itself fills it (load, restore, merge). Typing changes
     * `title` only: a field bound to `title` would be set back by a render that runs after more keys arrived.
     */
    titleShown: useSignal(''),
    body: useSignal(''),
    format: useSignal<ArticleFields['format']>('markdown'),
    siteId: useSignal(''),
    authorIds: useSignal<string[]>([]),
    tags: useSignal<NonNullable<ArticleFields['tags']>>([]),
    slug: useSignal(''),
    excerpt: useSignal(''),
    featureImageId: useSignal(''),
    /** The slug's problem (the API's rule, or taken), shown at the field. */
    slugError: useSignal<string | null>(null),
    titleTouched: useSignal(false),
    error: useSignal<string | null>(null),
    status: useSignal<string | null>(null),
    saveState: useSignal<SaveStateName>('saved'),
    offer: useSignal<LocalDraft | null>(null),
    conflict: useSignal<Conflict | null>(null),
    images: useSignal<ImageDto[]>([]),
    sites: useSignal<SiteDto[]>([]),
    authors: useSignal<AuthorDto[]>([]),
    nudge: useSignal(0),
    /** Loaded, and watching for changes (tests wait for it before typing). */
    ready: useSignal(false),
  };
  /** `dirtySince`: when the first change the server lacks was made (0: none), so that typing on cannot put autosave off for ever. */
  const timers = useStore({ local: 0, server: 0, dirtySince: 0, ready: false, loaded: '' });

  const current = $((): ArticleFields => {
    // The title as it is now (typing can outrun the input handler while the page resumes).
    const input = document.getElementById('article-title') as HTMLInputElement | null;
    if (input) s.title.value = input.value;
    const { title, body, format, siteId, authorIds, tags, slug, excerpt, featureImageId } = s;
    return {
      title: title.value,
      body: body.value,
      format: format.value,
      siteId: siteId.value,
      authorIds: authorIds.value,
      tags: tags.value,
      slug: slug.value,
      excerpt: excerpt.value,
      featureImageId: featureImageId.value,
    };
  });
  const key = $(() => draftKey(session.user?.id, s.id.value));

  const loadImages = $(async (articleId: string) => {
    const res = await call('get', '/v1/articles/{id}/images', { path: { id: articleId }, query: { limit: 100 } });
    if (res.ok) s.images.value = res.data.items;
  });

  const fill = $((f: ArticleFields) => {
    s.title.value = f.title;
    s.titleShown.value = f.title;
    // The field may hold typing since the last fill, which the signal alone would not replace.
    const input = document.getElementById('article-title') as HTMLInputElement | null;
    if (input) input.value = f.title;
    s.body.value = f.body;
    s.format.value = f.format;
    s.siteId.value = f.siteId;
    s.authorIds.value = [...f.authorIds];
    s.tags.value = [...(f.tags ?? [])];
    // Absent in older drafts: what the editor holds stays.
    if (f.slug !== undefined) s.slug.value = f.slug;
    if (f.excerpt !== undefined) s.excerpt.value = f.excerpt;
    if (f.featureImageId !== undefined) s.featureImageId.value = f.featureImageId;
  });

  return { s, timers, current, key, loadImages, fill };
}

export type EditorState = ReturnType<typeof useEditorState>;
