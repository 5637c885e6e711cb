import './zod-csp';
import { NAME_SLUG_MAX, slugify } from '../../../worker/src/contract/slug';
import {
  type AuthorDto,
  CreateAuthorSchema,
  UpdateAuthorSchema,
} from '../../../worker/src/features/authors/author.schema';
import { CreateSiteSchema, type SiteDto, UpdateSiteSchema } from '../../../worker/src/features/sites/site.schema';
import { CreateTagSchema, type TagDto, UpdateTagSchema } from '../../../worker/src/features/tags/tags.schema';
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
