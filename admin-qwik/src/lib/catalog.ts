import type { JSXOutput } from '@builder.io/qwik';
import type { ZodType } from 'zod';
import type { IconProps } from '../components/icons/icon';
import { IconAuthors, IconGlossary, IconRedirects, IconSites, IconTags } from '../components/icons/icons';
import type { paths } from './api-schema';
import type { BodyOf, MethodsOf, Operation, SuccessOf } from './api-types';

export type { AuthorDto } from '../../../worker/src/features/authors/author.schema';
export type { SiteDto } from '../../../worker/src/features/sites/site.schema';
export type { TagDto } from '../../../worker/src/features/tags/tags.schema';

/**
 * Sites, authors, tags and redirects: small catalogues with one screen shape (list with
 * paging, create, edit, delete with confirmation). Everything that differs
 * is an entry of CATALOGS below; the screen (components/catalog/), its API
 * calls, the navigation and the dashboard are derived from it, and the
 * rules are the API's own zod schemas, imported as they are.
 *
 * The navigation reads this module on every page, so it holds data only:
 * the schemas and any field notes are loaded by the entry's loaders when a
 * catalogue form first needs them (lib/catalog-form.ts), keeping zod out of
 * the other screens' scripts (tools/on-demand-chunks.ts keeps the preloader
 * from fetching them ahead).
 */

interface FieldBase<N extends string> {
  /** The key in the request body and in the item. */
  name: N;
  label: string;
  required: boolean;
  hint?: string;
  /**
   * What the form sends for the field left empty: by default null (an
   * optional value cleared); 'omit' sends nothing (the API makes the value:
   * a tag's slug); `{ slugOf }` a slug made here from that field (an author's).
   */
  ifEmpty?: 'omit' | { slugOf: N };
  /**
   * A value the browser tests type in (test/browser/catalog-kinds.ts): needed
   * where one made from the field's type would not pass the API's rule; an
   * optional field is filled in only when it has one.
   */
  sample?: string;
}

export interface TextFieldDef<N extends string = string> extends FieldBase<N> {
  type: 'text' | 'url' | 'textarea';
  maxLength: number;
}

export interface SelectFieldDef<N extends string = string> extends FieldBase<N> {
  type: 'select';
  /** The fixed choices, in order; a value is sent as it is (a number stays a number). */
  options: readonly { value: string | number; label: string }[];
}

export type FieldDef<N extends string = string> = TextFieldDef<N> | SelectFieldDef<N>;

type Path = keyof paths & string;

/** The API's catalogue routes: list (GET) and create (POST) at the path, change (PATCH) and delete (DELETE) at `path/{id}`. */
export type CatalogPath = {
  [P in Path]: `${P}/{id}` extends infer One extends Path
    ? 'get' | 'post' extends MethodsOf<P>
      ? 'patch' | 'delete' extends MethodsOf<One>
        ? P
        : never
      : never
    : never;
}[Path];

type Created<E extends Path> = SuccessOf<Operation<E, 'post'>>;
type ItemOf<E extends Path, K extends string> = Created<E> extends Record<K, infer I> ? I : never;
type FieldNameOf<E extends Path> = keyof BodyOf<Operation<E, 'post'>> & string;

export interface CatalogDef {
  /** "site" in sentences: "New site", "Delete the site X?". */
  noun: string;
  /** The screen's heading and its name in the navigation and on the dashboard. */
  title: string;
  /** The screen's address, one path segment: routes/[catalog]/index.tsx draws every entry's page. */
  href: string;
  /** One line for the dashboard card. */
  summary: string;
  icon: (props: IconProps) => JSXOutput;
  /** The API's collection: GET lists, POST creates; `endpoint/{id}` takes PATCH and DELETE. */
  endpoint: CatalogPath;
  /** What the API answers a created or changed item under: `{ site: … }`. */
  itemKey: string;
  /** The API's own request schemas (worker/src/features/…/*.schema.ts), loaded when a form is first checked. */
  schemas: () => Promise<{ create: ZodType; update: ZodType }>;
  fields: readonly FieldDef[];
  /** The field an item is called by ("Edit X", "X was saved"); `name` when not given. */
  titleField?: string;
  /** The field shown next to the title in the list. */
  metaField: string;
  /** A longer text shown under the title in the list, when the item has one. */
  detailField?: string;
  /** Live texts under fields as the form is typed in, by field name (a site's link preview); loaded with the form. */
  notes?: () => Promise<(values: Record<string, unknown>) => Record<string, string>>;
}

/**
 * An entry, checked against the generated API types: the endpoint is a
 * catalogue route, the item key is what its POST answers under, the fields
 * are keys of its POST body and the title, meta and detail fields keys of
 * its item.
 */
function catalog<E extends CatalogPath, K extends keyof Created<E> & string>(
  def: CatalogDef & {
    endpoint: E;
    itemKey: K;
    fields: readonly FieldDef<FieldNameOf<E>>[];
    titleField?: keyof ItemOf<E, K> & string;
    metaField: keyof ItemOf<E, K> & string;
    detailField?: keyof ItemOf<E, K> & string;
  },
) {
  return def;
}

export const CATALOGS = {
  site: catalog({
    noun: 'site',
    title: 'Sites',
    href: '/sites',
    summary: 'Where articles are published.',
    icon: IconSites,
    endpoint: '/v1/sites',
    itemKey: 'site',
    schemas: () =>
      import('../../../worker/src/features/sites/site.schema').then((m) => ({
        create: m.CreateSiteSchema,
        update: m.UpdateSiteSchema,
      })),
    metaField: 'baseUrl',
    detailField: 'description',
    notes: () => import('./catalog-notes/site').then((m) => m.siteLinkNotes),
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
        sample: '/blog/{slug}',
      },
    ],
  }),
  author: catalog({
    noun: 'author',
    title: 'Authors',
    href: '/authors',
    summary: 'The people articles are credited to.',
    icon: IconAuthors,
    endpoint: '/v1/authors',
    itemKey: 'author',
    schemas: () =>
      import('../../../worker/src/features/authors/author.schema').then((m) => ({
        create: m.CreateAuthorSchema,
        update: m.UpdateAuthorSchema,
      })),
    metaField: 'slug',
    detailField: 'bio',
    fields: [
      { name: 'name', label: 'Name', type: 'text', required: true, maxLength: 200 },
      {
        name: 'slug',
        label: 'Slug',
        type: 'text',
        required: false,
        maxLength: 100,
        hint: 'Lower-case letters and digits joined by hyphens; left empty, it is made from the name.',
        ifEmpty: { slugOf: 'name' },
      },
      { name: 'bio', label: 'Biography', type: 'textarea', required: false, maxLength: 5000 },
      {
        name: 'avatarUrl',
        label: 'Avatar address',
        type: 'text',
        required: false,
        maxLength: 2000,
        hint: 'An http(s) URL or an uploaded image path (/static/uploadedImages/…).',
        sample: 'https://example.com/avatar.png',
      },
    ],
  }),
  tag: catalog({
    noun: 'tag',
    title: 'Tags',
    href: '/tags',
    summary: 'Topics articles are filed under.',
    icon: IconTags,
    endpoint: '/v1/tags',
    itemKey: 'tag',
    schemas: () =>
      import('../../../worker/src/features/tags/tags.schema').then((m) => ({
        create: m.CreateTagSchema,
        update: m.UpdateTagSchema,
      })),
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
        // The API makes it from the name (and says so when the name gives none).
        ifEmpty: 'omit',
      },
    ],
  }),
  redirect: catalog({
    noun: 'redirect',
    title: 'Redirects',
    href: '/redirects',
    summary: 'Old addresses of the sites and where they go now.',
    icon: IconRedirects,
    endpoint: '/v1/redirects',
    itemKey: 'redirect',
    schemas: () =>
      import('../../../worker/src/features/redirects/redirects.schema').then((m) => ({
        create: m.CreateRedirectSchema,
        update: m.UpdateRedirectSchema,
      })),
    titleField: 'from',
    metaField: 'to',
    fields: [
      {
        name: 'from',
        label: 'Old path',
        type: 'text',
        required: true,
        maxLength: 2000,
        // The API's rule (redirects.schema.ts, docs/api.md) in its own words.
        hint: 'The path readers still arrive at, starting with /, without ? or #, e.g. /2019/old-story. A trailing / is dropped.',
        sample: '/old-story',
      },
      {
        name: 'to',
        label: 'New address',
        type: 'text',
        required: true,
        maxLength: 2000,
        hint: 'A path on the same site starting with /, or a full http(s) address.',
        sample: '/new-story',
      },
      {
        name: 'status',
        label: 'Kind of move',
        type: 'select',
        required: true,
        options: [
          { value: 301, label: '301 Moved for good' },
          { value: 308, label: '308 Moved for good, keeping the method' },
          { value: 302, label: '302 Moved for now' },
          { value: 307, label: '307 Moved for now, keeping the method' },
        ],
      },
    ],
  }),
  term: catalog({
    noun: 'term',
    title: 'Glossary',
    href: '/glossary',
    summary: 'Words the sites explain, and what they mean.',
    icon: IconGlossary,
    endpoint: '/v1/glossary',
    itemKey: 'term',
    schemas: () =>
      import('../../../worker/src/features/glossary/glossary.schema').then((m) => ({
        create: m.CreateTermSchema,
        update: m.UpdateTermSchema,
      })),
    metaField: 'slug',
    detailField: 'definition',
    fields: [
      { name: 'name', label: 'Term', type: 'text', required: true, maxLength: 200 },
      {
        name: 'slug',
        label: 'Slug',
        type: 'text',
        required: false,
        maxLength: 100,
        hint: 'How sites ask for the term: lower-case letters and digits joined by hyphens; left empty on a new term, it is made from the name.',
        // The API makes it from the name (and says so when the name gives none).
        ifEmpty: 'omit',
      },
      { name: 'definition', label: 'Definition', type: 'textarea', required: true, maxLength: 5000 },
    ],
  }),
};

type Catalogs = typeof CATALOGS;
export type CatalogKind = keyof Catalogs;
/** The API collections of the catalogues (`/v1/sites`, …). */
export type CatalogEndpoint = Catalogs[CatalogKind]['endpoint'];
/** An item of any catalogue as the API answers it. */
export type CatalogItem = { [K in CatalogKind]: ItemOf<Catalogs[K]['endpoint'], Catalogs[K]['itemKey']> }[CatalogKind] &
  Record<string, unknown>;

/** What an item is called by: its entry's title field. */
export function titleOf(def: CatalogDef, item: Record<string, unknown>): string {
  return String(item[def.titleField ?? 'name'] ?? '');
}

/** The longer text shown under an item's title: its entry's detail field, when the item has one. */
export function detailOf(def: CatalogDef, item: Record<string, unknown>): unknown {
  return def.detailField === undefined ? undefined : item[def.detailField];
}
