/**
 * Response shapes (JSON Schema 2020-12, as OpenAPI 3.1 uses). Requests are
 * described from the zod schemas that validate them; responses are written
 * here and checked against real responses by test/node/openapi.test.ts, so
 * neither side can drift unnoticed.
 */
const timestamp = { type: 'string', format: 'date-time' } as const;
const uuid = { type: 'string', format: 'uuid' } as const;
const nullable = (schema: object) => ({ oneOf: [schema, { type: 'null' }] });

const obj = (properties: Record<string, object>, required = Object.keys(properties)) => ({
  type: 'object',
  properties,
  required,
  additionalProperties: false,
});

export const COMPONENTS = {
  Error: obj({
    error: obj(
      {
        code: {
          enum: [
            'invalid_request',
            'unauthorized',
            'forbidden',
            'registration_closed',
            'not_found',
            'conflict',
            'payload_too_large',
            'rate_limited',
            'internal',
            'unavailable',
          ],
        },
        message: { type: 'string' },
        issues: { type: 'array', items: obj({ path: { type: 'string' }, message: { type: 'string' } }) },
      },
      ['code', 'message'],
    ),
  }),
  User: obj({
    id: uuid,
    email: { type: 'string' },
    displayName: nullable({ type: 'string' }),
    role: { enum: ['owner', 'admin'] },
    verified: { type: 'boolean' },
    createdAt: timestamp,
  }),
  Session: obj({ token: { type: 'string' }, user: { $ref: '#/components/schemas/User' } }),
  Invitation: obj({
    id: uuid,
    email: { type: 'string' },
    role: { enum: ['owner', 'admin'] },
    expiresAt: timestamp,
    createdAt: timestamp,
  }),
  Site: obj({
    id: uuid,
    name: { type: 'string' },
    baseUrl: { type: 'string' },
    description: nullable({ type: 'string' }),
    createdAt: timestamp,
  }),
  Author: obj({
    id: uuid,
    name: { type: 'string' },
    slug: { type: 'string' },
    bio: nullable({ type: 'string' }),
    avatarUrl: nullable({ type: 'string' }),
    createdAt: timestamp,
  }),
  Image: obj({
    id: uuid,
    articleId: uuid,
    filename: { type: 'string' },
    url: { type: 'string' },
    contentType: { enum: ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] },
    bytes: { type: 'integer' },
    width: { type: 'integer' },
    height: { type: 'integer' },
    sha256: { type: 'string', pattern: '^[0-9a-f]{64}$' },
    createdAt: timestamp,
  }),
  Article: obj({
    id: uuid,
    title: { type: 'string' },
    body: { type: 'string' },
    format: { enum: ['markdown', 'html', 'plaintext'] },
    status: { enum: ['online', 'offline'] },
    siteId: nullable(uuid),
    authorIds: { type: 'array', items: uuid },
    createdAt: timestamp,
    updatedAt: timestamp,
    publishedAt: nullable(timestamp),
    seo: { $ref: '#/components/schemas/Seo' },
    images: { type: 'array', items: { $ref: '#/components/schemas/Image' } },
  }),
  Version: obj({
    version: { type: 'string' },
    commit: { type: 'string' },
    builtAt: { type: 'string' },
    target: { enum: ['workers', 'node'] },
  }),
} as const;

export const ref = (name: ComponentName) => ({ $ref: `#/components/schemas/${name}` });
export const pageOf = (name: ComponentName) =>
  obj({ items: { type: 'array', items: ref(name) }, nextCursor: nullable({ type: 'string' }) });
export const wrapped = (key: string, name: ComponentName) => obj({ [key]: ref(name) });
export { obj };

export const EXTRA_COMPONENTS = {
  UpdateStatus: obj({
    current: { type: 'string' },
    latest: nullable({ type: 'string' }),
    available: { type: 'boolean' },
    staged: nullable({ type: 'string' }),
    lastCheckedAt: nullable(timestamp),
    notes: nullable({ type: 'string' }),
    supervised: {
      type: 'boolean',
      description: 'Node started by the supervisor: apply and rollback are available (false on Workers)',
    },
    previous: { ...nullable({ type: 'string' }), description: 'The release a rollback goes back to' },
    pending: {
      ...nullable(obj({ operation: { enum: ['apply', 'rollback'] }, version: { type: 'string' }, since: timestamp })),
      description: 'An apply or rollback the supervisor is carrying out',
    },
    lastApply: {
      ...nullable(
        obj({
          id: { type: 'string' },
          operation: { enum: ['apply', 'rollback'] },
          version: { type: 'string', description: 'The release switched to (or attempted)' },
          from: { type: 'string' },
          outcome: {
            enum: ['applied', 'rolled_back', 'failed'],
            description: 'rolled_back: not healthy in time, `from` runs again; failed: nothing was switched',
          },
          at: timestamp,
          reason: nullable({ type: 'string' }),
          actorId: nullable({ type: 'string' }),
        }),
      ),
      description: "The supervisor's last apply or rollback and how it ended",
    },
  }),
  Variant: obj({
    requestedWidth: nullable({ type: 'integer' }),
    contentType: { type: 'string' },
    bytes: { type: 'integer' },
    url: { type: 'string' },
    createdAt: timestamp,
  }),
  Seo: obj({
    metaTitle: nullable({ type: 'string' }),
    metaDescription: nullable({ type: 'string' }),
    canonicalUrl: nullable({ type: 'string' }),
    ogImage: nullable({ type: 'string' }),
    noindex: { type: 'boolean' },
  }),
  StructuredData: obj({
    robots: { enum: ['index, follow', 'noindex'] },
    canonicalUrl: nullable({ type: 'string' }),
    openGraph: { type: 'object', additionalProperties: { type: 'string' } },
    jsonLd: { type: 'object' },
    jsonLdText: { type: 'string' },
  }),
  ActivityEntry: obj({
    id: uuid,
    at: timestamp,
    actorId: nullable({ type: 'string' }),
    actorType: { enum: ['user', 'apiKey', 'system'] },
    action: { type: 'string' },
    subjectType: nullable({ type: 'string' }),
    subjectId: nullable({ type: 'string' }),
    ip: nullable({ type: 'string' }),
    details: nullable({ type: 'object' }),
  }),
  ActivitySummary: obj({
    from: nullable(timestamp),
    to: nullable(timestamp),
    total: { type: 'integer' },
    byAction: { type: 'array', items: obj({ action: { type: 'string' }, count: { type: 'integer' } }) },
    byActor: {
      type: 'array',
      items: obj({
        actorType: { enum: ['user', 'apiKey', 'system'] },
        actorId: nullable({ type: 'string' }),
        count: { type: 'integer' },
      }),
    },
    byDay: {
      type: 'array',
      items: obj({ day: { type: 'string', pattern: '^[0-9]{4}-[0-9]{2}-[0-9]{2}$' }, count: { type: 'integer' } }),
    },
    sizeBytes: { type: 'integer' },
    maxBytes: { type: 'integer' },
  }),
  ApiKey: obj({
    id: uuid,
    name: { type: 'string' },
    prefix: { type: 'string', pattern: '^cms_[0-9a-f]{8}$' },
    scopes: { type: 'array', items: { enum: ['content:read', 'content:write', 'media:write'] } },
    createdAt: timestamp,
    lastUsedAt: nullable(timestamp),
    expiresAt: nullable(timestamp),
  }),
  VariantCache: obj({
    count: { type: 'integer' },
    bytes: { type: 'integer' },
    presets: { type: 'array', items: { type: 'integer' } },
  }),
  PurgeRun: obj({
    id: { type: 'string', format: 'uuid' },
    trigger: { enum: ['manual', 'scheduled'] },
    dryRun: { type: 'boolean' },
    startedAt: timestamp,
    finishedAt: nullable(timestamp),
    status: { enum: ['running', 'succeeded', 'failed'] },
    removed: obj({
      duplicates: { type: 'array', items: { type: 'object' } },
      orphanBlobs: { type: 'array', items: { type: 'object' } },
      rowsWithoutBlob: { type: 'array', items: { type: 'object' } },
    }),
    bytesFreed: { type: 'integer' },
    error: nullable({ type: 'string' }),
  }),
} as const;

export const ALL_COMPONENTS = { ...COMPONENTS, ...EXTRA_COMPONENTS };
export type ComponentName = keyof typeof ALL_COMPONENTS;
