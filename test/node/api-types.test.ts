import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../worker/src/app/services.js';
import { buildOpenApiDocument } from '../../worker/src/http/openapi.js';
import { REPO_ROOT } from '../support/paths.js';

const TYPES_FILE = path.join(REPO_ROOT, 'admin-qwik/src/lib/api-schema.d.ts');

/**
 * The admin's API types are generated from the OpenAPI description, which is
 * generated from the route declarations and their zod schemas: one source. This test fails when
 * the committed file is stale; `npm run api:types` rewrites it.
 */
describe('admin API types', () => {
  it('are what the OpenAPI description generates', async () => {
    const document = buildOpenApiDocument(ROUTES, {
      version: '0.0.0',
      commit: 'none',
      builtAt: 'never',
      target: 'node',
    });
    const generated = astToString(await openapiTS(document as unknown as Parameters<typeof openapiTS>[0]));
    if (process.env.UPDATE_API_TYPES === '1') await writeFile(TYPES_FILE, generated);
    const committed = await readFile(TYPES_FILE, 'utf8').catch(() => '(missing)');
    expect(committed, 'admin-qwik/src/lib/api-schema.d.ts is stale: run npm run api:types').toBe(generated);
  });
});
