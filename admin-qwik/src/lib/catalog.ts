import './zod-csp';
import {
  type AuthorDto,
  CreateAuthorSchema,
  UpdateAuthorSchema,
} from '../../../worker/src/features/authors/author.schema';
import { siteArticleUrl } from '../../../worker/src/features/sites/article-url';
import {
  CreateSiteSchema,
  type SiteDto,
  UpdateSiteSchema,
  UrlPatternSchema,
} from '../../../worker/src/features/sites/site.schema';
import { CreateTagSchema, type TagDto, UpdateTagSchema } from '../../../worker/src/features/tags/tags.schema';
import { isHttpUrl } from '../../../worker/src/wire/common.schema';
import { NAME_SLUG_MAX, slugify } from '../../../worker/src/wire/slug';
import { issueInWords } from './field-labels';
import type { Issue } from './result';

export type { AuthorDto, SiteDto, TagDto };

/**
 * Sites, authors and tags: small catalogues with one screen shape (list with
 * paging, create, edit, delete with confirmation). What differs is data,
 * described here; the rules are the API's own zod schemas, imported as is.
 */
export type CatalogKind = 'site' | 'author' | 'tag';

export interface FieldDef {
  name: string;
  label: string;
  type: 'text' | 'url' | 'textarea';
  required: boolean;
  maxLength: number;
  hint?: string;
  autocomplete?: string;
}

export interface CatalogDef {
  kind: CatalogKind;
  /** "site" / "author" in sentences. */
  noun: string;
  title: string;
  endpoint: string;
  fields: FieldDef[];
  /** The field shown next to the name in the list. */
  metaField: string;
}

export const CATALOGS: Record<CatalogKind, CatalogDef> = {
  site: {
    kind: 'site',
    noun: 'site',
    title: 'Sites',
    endpoint: '/v1/sites',
    metaField: 'baseUrl',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 200 },
      {
        name: 'baseUrl',
        label: 'Base URL',
        type: 'url',
        required: true,
        maxLength: 2000,
        hint: 'Where the site is published, e.g. https://example.com',
      },
      { name: 'description', label: 'Description', type: 'textarea', required: false, maxLength: 5000 },
      {
        name: 'urlPattern',
        label: 'Article URL pattern',
        type: 'text',
        required: false,
        maxLength: 200,
        // The API's rule (site.schema.ts, docs/api.md) in its own words.
        hint: 'Where an article lives under the base URL, for its links in feeds and sitemaps: a path starting with / that holds {slug} once, of letters, digits and - . _ ~ /, e.g. /blog/{slug} or /{slug}.html. Left empty, it is /{slug}.',
      },
    ],
  },
  author: {
    kind: 'author',
    noun: 'author',
    title: 'Authors',
    endpoint: '/v1/authors',
    metaField: 'slug',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 200 },
      {
        name: 'slug',
        label: 'Slug',
        type: 'text',
        required: false,
        maxLength: 100,
        hint: 'Lower-case letters and digits joined by hyphens; left empty, it is made from the name.',
      },
      { name: 'bio', label: 'Biography', type: 'textarea', required: false, maxLength: 5000 },
      {
        name: 'avatarUrl',
        label: 'Avatar address',
        type: 'text',
        required: false,
        maxLength: 2000,
        hint: 'An http(s) URL or an uploaded image path (/static/uploadedImages/…).',
      },
    ],
  },
  tag: {
    kind: 'tag',
    noun: 'tag',
    title: 'Tags',
    endpoint: '/v1/tags',
    metaField: 'slug',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 200 },
      {
        name: 'slug',
        label: 'Slug',
        type: 'text',
        required: false,
        maxLength: 100,
        hint: 'How sites ask for the tag (?tag=…): lower-case letters and digits joined by hyphens; left empty on a new tag, it is made from the name.',
      },
    ],
  },
};

/** The slug the Sites form's link preview is shown with. */
export const PREVIEW_SLUG = 'my-article';

/**
 * Text shown live under a field, by field name: for a site, the link an
 * article gets from the pattern and base URL as typed (the server's own
 * function makes it, so the preview is what feeds and sitemaps will say).
 */
export function fieldNotes(kind: CatalogKind, values: Record<string, unknown>): Record<string, string> {
  if (kind !== 'site') return {};
  const text = (key: string) => (typeof values[key] === 'string' ? (values[key] as string).trim() : '');
  const pattern = text('urlPattern') || null;
  if (pattern !== null && !UrlPatternSchema.safeParse(pattern).success) {
    return { urlPattern: 'The link preview shows once the pattern is a path with {slug}.' };
  }
  const base = text('baseUrl');
  const said = `An article with the slug ${PREVIEW_SLUG} is linked as`;
  return {
    urlPattern: isHttpUrl(base)
      ? `${said} ${siteArticleUrl(base, pattern, PREVIEW_SLUG)}`
      : `${said} ${siteArticleUrl('', pattern, PREVIEW_SLUG)} under the base URL.`,
  };
}

const SCHEMAS = {
  site: { create: CreateSiteSchema, update: UpdateSiteSchema },
  author: { create: CreateAuthorSchema, update: UpdateAuthorSchema },
  tag: { create: CreateTagSchema, update: UpdateTagSchema },
} as const;

export type CatalogItem = (SiteDto | AuthorDto | TagDto) & Record<string, unknown>;

/**
 * The form's values → the request body, checked with the API's schema.
 * Empty optional text becomes null (cleared); an empty slug is made from the name (a tag's by the API).
 */
export function toBody(
  kind: CatalogKind,
  values: Record<string, string>,
  isNew: boolean,
): { body: Record<string, unknown> } | { issues: Issue[] } {
  const body: Record<string, unknown> = {};
  for (const f of CATALOGS[kind].fields) {
    const raw = values[f.name] ?? '';
    const value = f.type === 'textarea' ? raw : raw.trim();
    // The API makes a tag's slug itself (and says so when the name gives none); authors need one.
    if (f.name === 'slug' && value === '') {
      if (kind !== 'tag') body.slug = slugify(values.name ?? '', NAME_SLUG_MAX, '');
    } else if (!f.required && value === '') body[f.name] = null;
    else body[f.name] = value;
  }
  const result = SCHEMAS[kind][isNew ? 'create' : 'update'].safeParse(body);
  if (result.success) return { body };
  return { issues: result.error.issues.map((i) => issueInWords({ path: i.path.join('.'), message: i.message })) };
}
