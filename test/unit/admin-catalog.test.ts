import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CATALOGS, type CatalogKind, type FieldDef, titleOf } from '../../admin-qwik/src/lib/catalog.js';
import { fieldNotes, formBody, inFormWords, toBody } from '../../admin-qwik/src/lib/catalog-form.js';
import { NAME_SLUG_MAX, slugify as slugifyAny } from '../../worker/src/wire/slug.js';

/** How the admin makes an author's slug from a name (the server makes tags' the same way). */
const slugify = (text: string) => slugifyAny(text, NAME_SLUG_MAX, '');

describe('admin author slugs', () => {
  it('makes what the API slug rule accepts: lower case, accents dropped, single hyphens, no ends', () => {
    expect(slugify('Ada Lovelace')).toBe('ada-lovelace');
    expect(slugify('  Émile  Zola!! ')).toBe('emile-zola');
    expect(slugify('Straße & Söhne — 2nd ed.')).toBe('stra-e-sohne-2nd-ed');
    expect(slugify('---')).toBe('');
    expect(slugify('東京')).toBe('');
  });

  it('cuts at 100 characters without leaving a hyphen at the end', () => {
    const slug = slugify(`${'a'.repeat(99)} b`);
    expect(slug).toBe('a'.repeat(99));
    expect(slugify('word '.repeat(40)).length).toBeLessThanOrEqual(100);
    expect(slugify('word '.repeat(40))).not.toMatch(/-$/);
  });
});

describe('admin catalog forms → request bodies (the API zod schemas)', () => {
  it('makes an empty author slug from the name and clears empty optional fields', async () => {
    expect(await toBody('author', { name: ' Ada Lovelace ', slug: '', bio: '', avatarUrl: ' ' }, true)).toEqual({
      body: { name: 'Ada Lovelace', slug: 'ada-lovelace', bio: null, avatarUrl: null },
    });
  });

  it('leaves an empty tag slug out (the API makes it, or says why it cannot) and checks a given one', async () => {
    expect(await toBody('tag', { name: ' 東京 ', slug: ' ' }, true)).toEqual({ body: { name: '東京' } });
    expect(await toBody('tag', { name: 'News', slug: 'news' }, false)).toEqual({
      body: { name: 'News', slug: 'news' },
    });
    const bad = await toBody('tag', { name: 'News', slug: 'News!' }, true);
    expect('issues' in bad && bad.issues.map((i) => i.path)).toEqual(['slug']);
  });

  it('keeps a textarea as typed and trims one-line fields', async () => {
    expect(
      await toBody(
        'site',
        { name: ' Blog ', baseUrl: ' https://blog.example.com ', description: '  two\nlines ' },
        true,
      ),
    ).toEqual({
      body: { name: 'Blog', baseUrl: 'https://blog.example.com', description: '  two\nlines ', urlPattern: null },
    });
  });

  it('returns the schema issues by field, in the labels people see, instead of a body', async () => {
    const site = await toBody('site', { name: '', baseUrl: 'ftp://x', description: '' }, true);
    expect('issues' in site && site.issues.map((i) => i.path).sort()).toEqual(['baseUrl', 'name']);
    expect('issues' in site && site.issues.find((i) => i.path === 'baseUrl')?.message).toBe(
      'Base URL must be an http(s) URL',
    );
    const author = await toBody('author', { name: 'Ada', slug: 'Not A Slug', bio: '', avatarUrl: '' }, false);
    expect('issues' in author && author.issues).toEqual([
      { path: 'slug', message: 'Slug must be lower-case letters and digits separated by single hyphens' },
    ]);
  });
});

describe('admin site URL pattern', () => {
  it('sends a trimmed pattern, clears an empty one, and names a refused one at its field in the label people see', async () => {
    const site = (urlPattern: string) =>
      toBody('site', { name: 'Blog', baseUrl: 'https://blog.example.com', description: '', urlPattern }, false);
    expect(await site(' /blog/{slug}.html ')).toMatchObject({ body: { urlPattern: '/blog/{slug}.html' } });
    expect(await site('  ')).toMatchObject({ body: { urlPattern: null } });
    for (const bad of ['blog/{slug}', '/blog/', '/{slug}/{slug}', '/a b/{slug}', '/x?{slug}']) {
      expect(await site(bad)).toEqual({
        issues: [
          {
            path: 'urlPattern',
            message: 'Article URL pattern must be a path starting with / that holds {slug} once, e.g. /blog/{slug}',
          },
        ],
      });
    }
  });

  it('previews the link an article gets, as feeds and sitemaps make it', async () => {
    expect(await fieldNotes('site', { baseUrl: 'https://news.example/', urlPattern: '/blog/{slug}.html' })).toEqual({
      urlPattern: 'An article with the slug my-article is linked as https://news.example/blog/my-article.html',
    });
    expect((await fieldNotes('site', { baseUrl: ' https://news.example ', urlPattern: '' })).urlPattern).toBe(
      'An article with the slug my-article is linked as https://news.example/my-article',
    );
    expect((await fieldNotes('site', { baseUrl: '', urlPattern: '/p/{slug}' })).urlPattern).toBe(
      'An article with the slug my-article is linked as /p/my-article under the base URL.',
    );
    expect((await fieldNotes('site', { baseUrl: 'https://news.example', urlPattern: '/p/' })).urlPattern).toBe(
      'The link preview shows once the pattern is a path with {slug}.',
    );
    expect(await fieldNotes('author', { name: 'Ada' })).toEqual({});
  });
});

describe('admin catalogue entries (lib/catalog.ts)', () => {
  const kinds = Object.keys(CATALOGS) as CatalogKind[];

  it('each has an address of its own that no other route takes, and a title field among its fields', () => {
    const hrefs = kinds.map((kind) => CATALOGS[kind].href);
    expect(new Set(hrefs).size).toBe(kinds.length);
    for (const kind of kinds) {
      const def = CATALOGS[kind];
      // One segment, drawn by routes/[catalog]/index.tsx; a static route of that name would take its page.
      expect(def.href, kind).toMatch(/^\/[a-z][a-z-]*$/);
      const shadow = new URL(`../../admin-qwik/src/routes${def.href}`, import.meta.url);
      expect(existsSync(shadow), `${kind}: ${def.href}`).toBe(false);
      expect(def.fields.map((f) => f.name)).toContain(def.titleField ?? 'name');
    }
  });

  it('calls an item by its title field, `name` when the entry names none', () => {
    expect(titleOf(CATALOGS.tag, { name: 'News', slug: 'news' })).toBe('News');
    expect(titleOf({ ...CATALOGS.tag, titleField: 'slug' }, { name: 'News', slug: 'news' })).toBe('news');
    expect(titleOf(CATALOGS.tag, {})).toBe('');
  });

  it('loads each kind’s own API schemas when asked', async () => {
    for (const kind of kinds) {
      const { create, update } = await CATALOGS[kind].schemas();
      expect(create.safeParse({}).success, kind).toBe(false);
      expect(update.safeParse({}).success, kind).toBe(true);
    }
  });
});

describe('admin catalogue form bodies', () => {
  const status: FieldDef = {
    name: 'status',
    label: 'Status',
    type: 'select',
    required: true,
    options: [
      { value: 301, label: '301 Moved permanently' },
      { value: 308, label: '308 Permanent redirect' },
    ],
  };
  const mode: FieldDef = { ...status, name: 'mode', required: false, options: [{ value: 'a', label: 'A' }] };

  it('sends the chosen option’s value as it is (a number stays a number), an empty optional select as null', () => {
    expect(formBody([status, mode], { status: '308', mode: '' })).toEqual({ status: 308, mode: null });
    expect(formBody([status, mode], { status: '301', mode: 'a' })).toEqual({ status: 301, mode: 'a' });
    // Not an option (a tampered form): sent as typed, for the schema to refuse.
    expect(formBody([status], { status: '399' })).toEqual({ status: '399' });
  });

  it('puts the form’s own labels into the API’s words, the shared ones too', () => {
    expect(
      inFormWords('site', {
        message: 'baseUrl must be an http(s) URL; name must not be empty',
        issues: [{ path: 'urlPattern', message: 'urlPattern must be a path' }],
      }),
    ).toEqual({
      message: 'Base URL must be an http(s) URL; Name must not be empty',
      issues: [{ path: 'urlPattern', message: 'Article URL pattern must be a path' }],
    });
  });
});
