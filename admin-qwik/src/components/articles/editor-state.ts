import { $, useContext, useSignal, useStore } from '@builder.io/qwik';
import type { ArticleDto } from '../../../../worker/src/features/articles/article.schema';
import type { ImageDto } from '../../../../worker/src/features/media/media.schema';
import { type ArticleFields, EMPTY_FIELDS } from '../../lib/article-fields';
import type { AuthorDto, SiteDto } from '../../lib/catalog';
import { draftKey, type LocalDraft } from '../../lib/draft-store';
import { type SeoValues, seoValues } from '../../lib/seo-merge';
import { SessionContext } from '../../lib/session';
import { call, type Issue } from '../../lib/typed-api';
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
    seo: useSignal<SeoValues>(seoValues({})),
    /**
     * What the slug, excerpt and SEO fields are set to when the editor fills them, as `titleShown`: typing
     * changes `slug`, `excerpt` and `seo` only, so a late render never sets a field back to an older value.
     */
    slugShown: useSignal(''),
    excerptShown: useSignal(''),
    seoShown: useSignal<SeoValues>(seoValues({})),
    /** The slug's problem (the API's rule, or taken), shown at the field. */
    slugError: useSignal<string | null>(null),
    /** The SEO fields' problems by the API's rule (path: the field's name), shown at each. */
    seoIssues: useSignal<Issue[]>([]),
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
    /** Loaded, and watching for changes. */
    ready: useSignal(false),
    /** Every keystroke is kept in this browser from now on (use-editor-keys.ts); with `ready`, the page shows data-ready, which tests wait for before typing. */
    keeping: useSignal(false),
  };
  /** `dirtySince`: when the first change the server lacks was made (0: none), so that typing on cannot put autosave off for ever. */
  const timers = useStore({ local: 0, server: 0, dirtySince: 0, ready: false, loaded: '' });

  const current = $((): ArticleFields => {
    const now = fieldsOnPage(s);
    // What typing put there (it can outrun the input handlers while the page resumes).
    s.title.value = now.title;
    return now;
  });
  const key = $(() => draftKey(session.user?.id, s.id.value));

  const loadImages = $(async (articleId: string) => {
    const res = await call('get', '/v1/articles/{id}/images', { path: { id: articleId }, query: { limit: 100 } });
    if (res.ok) s.images.value = res.data.items;
  });

  const fill = $((f: ArticleFields) => {
    s.title.value = f.title;
    s.titleShown.value = f.title;
    // A field may hold typing since the last fill, which the signals alone would not replace.
    setField('article-title', f.title);
    s.body.value = f.body;
    s.format.value = f.format;
    s.siteId.value = f.siteId;
    s.authorIds.value = [...f.authorIds];
    s.tags.value = [...(f.tags ?? [])];
    // Absent in older drafts: what the editor holds stays.
    if (f.slug !== undefined) {
      s.slug.value = f.slug;
      s.slugShown.value = f.slug;
      setField('content-slug', f.slug);
    }
    if (f.excerpt !== undefined) {
      s.excerpt.value = f.excerpt;
      s.excerptShown.value = f.excerpt;
      setField('content-excerpt', f.excerpt);
    }
    if (f.featureImageId !== undefined) s.featureImageId.value = f.featureImageId;
    if (f.seo !== undefined) {
      s.seo.value = { ...f.seo };
      s.seoShown.value = { ...f.seo };
      for (const name of SEO_TEXT) setField(`seo-${name}`, f.seo[name]);
      const box = document.getElementById('seo-noindex') as HTMLInputElement | null;
      if (box) box.checked = f.seo.noindex;
    }
  });

  return { s, timers, current, key, loadImages, fill };
}

export type EditorState = ReturnType<typeof useEditorState>;
type Signals = EditorState['s'];

/** The SEO panel's text fields (`seo-<name>` on the page). */
export const SEO_TEXT = ['metaTitle', 'metaDescription', 'canonicalUrl', 'ogImage'] as const;

function setField(id: string, value: string): void {
  const el = document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null;
  if (el) el.value = value;
}

/** A text field's value as the page has it now, or `held` while it is not on the page. */
function onPage(id: string, held: string): string {
  return (document.getElementById(id) as HTMLInputElement | HTMLTextAreaElement | null)?.value ?? held;
}

/** The SEO fields as the page has them now (typing comes before Qwik's handlers set the signal). */
export function seoOnPage(held: SeoValues): SeoValues {
  const box = document.getElementById('seo-noindex') as HTMLInputElement | null;
  const out = { ...held, noindex: box ? box.checked : held.noindex };
  for (const name of SEO_TEXT) out[name] = onPage(`seo-${name}`, held[name]);
  return out;
}

/**
 * The fields as they are now: the text fields read from the page (keys can arrive before Qwik's input
 * handlers run), the rest from their signals. Plain, so that synchronous listeners can use it too.
 */
export function fieldsOnPage(s: Pick<Signals, keyof ArticleFields | 'title'>): ArticleFields {
  return {
    title: onPage('article-title', s.title.value),
    body: s.body.value,
    format: s.format.value,
    siteId: s.siteId.value,
    authorIds: s.authorIds.value,
    tags: s.tags.value,
    slug: onPage('content-slug', s.slug.value),
    excerpt: onPage('content-excerpt', s.excerpt.value),
    featureImageId: s.featureImageId.value,
    seo: seoOnPage(s.seo.value),
  };
}
