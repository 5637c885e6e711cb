import { v7 as uuidv7 } from 'uuid';
import { afterEach, beforeEach, expect } from 'vitest';
import type { NewUser } from '../../worker/src/features/accounts/users.port.js';
import type { Article } from '../../worker/src/features/articles/articles.port.js';
import { EMPTY_SEO } from '../../worker/src/features/articles/seo.schema.js';
import type { Image } from '../../worker/src/features/media/images.port.js';
import type { Repositories } from '../../worker/src/ports/repositories.js';

/**
 * What every repository contract suite is given. The articles and images
 * suites insert bare sites and authors with each adapter's own driver (they
 * predate the SitesRepository and AuthorsRepository ports).
 * Runs in workerd too: no Node imports here.
 */
export interface DbFixtures {
  insertSite(id: string): Promise<void>;
  insertAuthor(id: string): Promise<void>;
}

export interface RepositoryContractSetup {
  repos: Repositories;
  fixtures: DbFixtures;
  cleanup(): Promise<void>;
}

export type SetupRepositories = () => Promise<RepositoryContractSetup>;

/**
 * A fresh database for every test of the enclosing describe: read
 * `db.repos` and `db.fixtures` inside the tests (they change per test).
 */
export function freshRepositories(setup: SetupRepositories): RepositoryContractSetup {
  let ctx: RepositoryContractSetup | undefined;
  const current = () => {
    if (!ctx) throw new Error('the database is set up per test: use it inside a test');
    return ctx;
  };
  beforeEach(async () => {
    ctx = await setup();
  });
  afterEach(async () => {
    await ctx?.cleanup();
    ctx = undefined;
  });
  return {
    get repos() {
      return current().repos;
    },
    get fixtures() {
      return current().fixtures;
    },
    cleanup: async () => undefined,
  };
}

export const newId = (): string => uuidv7();

/** Ids in strictly ascending order, as the app would make them over time. */
export const ascendingIds = (n: number): string[] => Array.from({ length: n }, () => uuidv7());

/** Strings that break naive SQL, LIKE patterns, encodings and collations. */
export const HOSTILE_STRINGS = [
  `O'Brien "quoted" \`tick\` \\ backslash`,
  '100% _under_score_ [brackets] ^caret',
  "'; DROP TABLE articles; --",
  'emoji 👩‍💻🚀 and 𝔘𝔫𝔦𝔠𝔬𝔡𝔢 astral',
  'RTL \u202Eevil\u202C and \u200F mark \u200E, arabic مرحبا, hebrew שלום',
  'Ｆｕｌｌｗｉｄｔｈ Straße İstanbul ǅ',
  'trailing spaces   ',
  'e\u0301 vs \u00e9 (not normalised)',
];

/** Exactly 1 MiB of varied text, multi-byte characters included. */
export function megabyteBody(): string {
  const unit = 'Lorem ipsum % _ \' " 🚀 ש\n';
  let body = '';
  while (body.length < 1024 * 1024) body += unit;
  return `${body.slice(0, 1024 * 1024 - 1)}Z`;
}

export function sampleUser(overrides: Partial<NewUser> = {}): NewUser {
  const id = overrides.id ?? newId();
  return {
    id,
    email: `user-${id}@example.com`,
    displayName: 'Sample User',
    role: 'admin',
    verified: false,
    passwordHash: 'pbkdf2$sha256$600000$c2FsdA$aGFzaA',
    createdAt: new Date('2026-11-25T21:00:00.123Z'),
    verificationCodeHash: `code-${id}`,
    verificationExpiresAt: new Date('2026-11-25T23:00:00.456Z'),
    ...overrides,
  };
}

export function sampleArticle(overrides: Partial<Article> = {}): Article {
  const id = overrides.id ?? newId();
  return {
    id,
    title: 'A title',
    body: 'A body',
    format: 'markdown',
    status: 'offline',
    siteId: null,
    authorIds: [],
    tagIds: [],
    createdAt: new Date('2026-11-25T21:00:00.001Z'),
    updatedAt: new Date('2026-11-25T21:00:00.001Z'),
    publishedAt: null,
    scheduledAt: null,
    seo: { ...EMPTY_SEO },
    version: 1,
    slug: `sample-${id}`,
    excerpt: null,
    html: null,
    featureImageId: null,
    ...overrides,
  };
}

export function sampleImage(articleId: string, overrides: Partial<Image> = {}): Image {
  const id = overrides.id ?? newId();
  return {
    id,
    articleId,
    filename: `${id}.png`,
    contentType: 'image/png',
    bytes: 12345,
    width: 640,
    height: 480,
    sha256: 'a'.repeat(64),
    createdAt: new Date('2026-11-25T21:30:00.789Z'),
    originalName: null,
    alt: '',
    caption: '',
    ...overrides,
  };
}

/** The rejection every contract checks: a DomainError with this code. */
export const domainError = (code: string) => ({ name: 'DomainError', code });

/** A catalogue repository's list (adapters/db/shared/catalog-rows.ts), as sites, authors, tags and redirects share it. */
interface CatalogList<T> {
  create(row: T): Promise<void>;
  list(query: { limit: number; beforeId?: string }): Promise<{ id: string }[]>;
}

/** Five rows made in order come back newest first, two a page by keyset, and a limit of 0 is refused. */
export async function expectKeysetPages<T>(repo: CatalogList<T>, sample: (id: string) => T): Promise<void> {
  const ids = ascendingIds(5);
  for (const id of ids) await repo.create(sample(id));
  const newestFirst = [...ids].reverse();
  const first = await repo.list({ limit: 2 });
  expect(first.map((r) => r.id)).toEqual(newestFirst.slice(0, 2));
  const second = await repo.list({ limit: 2, beforeId: first[1]!.id });
  expect(second.map((r) => r.id)).toEqual(newestFirst.slice(2, 4));
  const last = await repo.list({ limit: 2, beforeId: second[1]!.id });
  expect(last.map((r) => r.id)).toEqual(newestFirst.slice(4));
  await expect(repo.list({ limit: 0 })).rejects.toMatchObject(domainError('invalid_request'));
}
