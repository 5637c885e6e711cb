import { looksLikeApiKey } from '../../auth/api-key.js';
import type { User } from '../../auth/user.js';
import { DomainError, notFound } from '../../core/domain/errors.js';
import { newSecretCode, sha256Hex, toHex } from '../../core/shared/crypto.js';
import { decodeCursor, toPage } from '../../core/shared/pagination.js';
import type { Repositories } from '../../ports/repositories.js';
import type { Clock, IdGenerator } from '../../ports/runtime.js';
import type { Page } from '../../wire/pagination.schema.js';
import { API_KEY_PREFIX, type ApiKeyDto, type CreateApiKeyInput, type CreatedApiKeyDto } from './api-key.schema.js';
import type { ApiKey } from './api-keys.port.js';

export interface ApiKeysDeps {
  repos: Repositories;
  clock: Clock;
  ids: IdGenerator;
}

// `cms_` + 8 hex characters to recognise a key by, `_`, then 256 random bits.
const KEY_SHAPE = /^cms_[0-9a-f]{8}_[A-Za-z0-9_-]{43}$/;
// Recording every use would write on every request; once a minute says enough.
const TOUCH_EVERY_MS = 60_000;

export function toApiKeyDto(k: ApiKey): ApiKeyDto {
  return {
    id: k.id,
    name: k.name,
    prefix: k.prefix,
    scopes: [...k.scopes],
    createdAt: k.createdAt.toISOString(),
    lastUsedAt: k.lastUsedAt?.toISOString() ?? null,
    expiresAt: k.expiresAt?.toISOString() ?? null,
  };
}

export { looksLikeApiKey };

/**
 * Integration keys (docs/api.md#api-keys). The secret is shown once, at
 * creation; only its SHA-256 is stored (a 256-bit random secret needs no
 * slow hash: nothing about it can be guessed offline). A deleted or expired
 * key is refused on its next request.
 */
export function createApiKeysService(deps: ApiKeysDeps) {
  const { repos, clock, ids } = deps;

  return {
    async create(owner: User, input: CreateApiKeyInput): Promise<CreatedApiKeyDto> {
      const now = clock.now();
      if (input.expiresAt && input.expiresAt.getTime() <= now.getTime()) {
        throw new DomainError('invalid_request', 'expiresAt must be in the future', [
          { path: 'expiresAt', message: 'must be in the future' },
        ]);
      }
      const recognisable = toHex(crypto.getRandomValues(new Uint8Array(4)));
      const secret = `${API_KEY_PREFIX}${recognisable}_${newSecretCode()}`;
      const key: ApiKey = {
        id: ids.newId(),
        name: input.name,
        prefix: `${API_KEY_PREFIX}${recognisable}`,
        scopes: [...input.scopes],
        createdBy: owner.id,
        createdAt: now,
        lastUsedAt: null,
        expiresAt: input.expiresAt ?? null,
      };
      await repos.apiKeys.create(key, await sha256Hex(secret));
      return { apiKey: toApiKeyDto(key), secret };
    },

    async list(limit: number, cursor: string | undefined): Promise<Page<ApiKeyDto>> {
      const beforeId = decodeCursor(cursor);
      const rows = await repos.apiKeys.list({ limit: limit + 1, ...(beforeId && { beforeId }) });
      return toPage(rows, limit, toApiKeyDto);
    },

    async delete(id: string): Promise<void> {
      if (!(await repos.apiKeys.delete(id))) throw notFound();
    },

    /**
     * The key behind a `cms_…` bearer token, or null (unknown, deleted,
     * expired, malformed). `touch` is set when the use should be recorded.
     */
    async authenticate(token: string): Promise<{ key: ApiKey; touch: boolean } | null> {
      if (!KEY_SHAPE.test(token)) return null;
      const key = await repos.apiKeys.findBySecretHash(await sha256Hex(token));
      const now = clock.now().getTime();
      if (!key || (key.expiresAt && key.expiresAt.getTime() <= now)) return null;
      const touch = !key.lastUsedAt || now - key.lastUsedAt.getTime() >= TOUCH_EVERY_MS;
      return { key, touch };
    },

    touch(id: string): Promise<void> {
      return repos.apiKeys.touch(id, clock.now());
    },
  };
}

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
