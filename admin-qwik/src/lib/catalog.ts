import './zod-csp';
import {
  type AuthorDto,
  CreateAuthorSchema,
  UpdateAuthorSchema,
} from '../../../worker/src/features/authors/author.schema';
import { CreateSiteSchema, type SiteDto, UpdateSiteSchema } from '../../../worker/src/features/sites/site.schema';
import type { Issue } from './result';

export type { AuthorDto, SiteDto };

/**
 * Sites and authors: two small catalogues with one screen shape (list with
 * paging, create, edit, delete with confirmation). What differs is data,
 * described here; the rules are the API's own zod schemas, imported as is.
 */
export type CatalogKind = 'site' | 'author';

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
};

export type CatalogItem = (SiteDto | AuthorDto) & Record<string, unknown>;

/** `Ada Lovelace` → `ada-lovelace` (accents dropped; what the API's slug rule accepts). */
export function slugify(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
}

/**
 * The form's values → the request body, checked with the API's schema.
 * Empty optional text becomes null (cleared); an empty slug is made from the name.
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
    if (f.name === 'slug' && value === '') body.slug = slugify(values.name ?? '');
    else if (!f.required && value === '') body[f.name] = null;
    else body[f.name] = value;
  }
  const schema =
    kind === 'site' ? (isNew ? CreateSiteSchema : UpdateSiteSchema) : isNew ? CreateAuthorSchema : UpdateAuthorSchema;
  const result = schema.safeParse(body);
  if (result.success) return { body };
  return { issues: result.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })) };
}
