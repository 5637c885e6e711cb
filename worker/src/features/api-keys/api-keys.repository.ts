import { desc, eq, lt } from 'drizzle-orm';
import {
  guarded,
  normalizeId,
  refuseNul,
  requireId,
  requireLimit,
} from '../../adapters/db/shared/repository-support.js';
import type { SqlKit } from '../../adapters/db/shared/sql-kit.js';
import { API_KEY_SCOPES, type ApiKeyScope } from './api-key.schema.js';
import type { ApiKey, ApiKeysRepository } from './api-keys.port.js';

type ApiKeyRow = SqlKit['tables']['apiKeys']['$inferSelect'];

const KNOWN_SCOPES: ReadonlySet<string> = new Set(API_KEY_SCOPES);

// A scope the code no longer knows (a downgrade) is dropped rather than trusted.
const parseScopes = (text: string): ApiKeyScope[] =>
  text.split(',').filter((s): s is ApiKeyScope => KNOWN_SCOPES.has(s));

/** A mapper that changes shape: `scopes` is a comma list in the row, and the secret's hash stays in storage. */
const toApiKey = (row: ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  scopes: parseScopes(row.scopes),
  createdBy: row.createdBy,
  createdAt: row.createdAt,
  lastUsedAt: row.lastUsedAt,
  expiresAt: row.expiresAt,
});

export function createApiKeysRepository(kit: SqlKit): ApiKeysRepository {
  const { db } = kit;
  const { apiKeys } = kit.tables;

  const repo: ApiKeysRepository = {
    async create(key, secretHash) {
      const id = requireId(key.id, 'id');
      refuseNul({ name: key.name });
      await db.insert(apiKeys).values({
        id,
        name: key.name,
        prefix: key.prefix,
        secretHash,
        scopes: key.scopes.join(','),
        createdBy: key.createdBy === null ? null : requireId(key.createdBy, 'createdBy'),
        createdAt: key.createdAt,
        lastUsedAt: key.lastUsedAt,
        expiresAt: key.expiresAt,
      });
    },

    async findBySecretHash(secretHash) {
      if (!/^[0-9a-f]{64}$/.test(secretHash)) return null;
      const [row] = await db.select().from(apiKeys).where(eq(apiKeys.secretHash, secretHash)).limit(1);
      return row ? toApiKey(row) : null;
    },

    async list({ limit, beforeId }) {
      const rows = await db
        .select()
        .from(apiKeys)
        .where(beforeId === undefined ? undefined : lt(apiKeys.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(apiKeys.id))
        .limit(requireLimit(limit));
      return rows.map(toApiKey);
    },

    async delete(id) {
      const key = normalizeId(id);
      if (key === null) return false;
      return kit.affectedRows(await db.delete(apiKeys).where(eq(apiKeys.id, key))) > 0;
    },

    async touch(id, at) {
      const key = normalizeId(id);
      if (key === null) return;
      await db.update(apiKeys).set({ lastUsedAt: at }).where(eq(apiKeys.id, key));
    },
  };
  return guarded(kit, repo);
}
