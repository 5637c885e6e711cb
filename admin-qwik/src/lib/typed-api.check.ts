// Compile-time checks of typed-api.ts (run by `tsc -p admin-qwik`): each
// expected error below must be one, or the compiler reports the directive unused.
import { type ApiAnswer, call, undescribed } from './typed-api';

export async function typedApiCompiles(): Promise<void> {
  const keys = await call('get', '/v1/api-keys', { query: { limit: 20 } });
  if (keys.ok) {
    const prefix: string = keys.data.items[0]!.prefix;
    void prefix;
  }
  await call('post', '/v1/api-keys', { body: { name: 'Builder', scopes: ['content:read'] } });
  // @ts-expect-error -- not a scope
  await call('post', '/v1/api-keys', { body: { name: 'Builder', scopes: ['root'] } });
  // @ts-expect-error -- no such route
  await call('get', '/v1/nope');
  // @ts-expect-error -- the route has no PUT
  await call('put', '/v1/api-keys');
  await call('delete', '/v1/api-keys/{id}', { path: { id: 'x' } });
  const summary: ApiAnswer<'/v1/activity/summary', 'get'> | null = null;
  // @ts-expect-error -- the summary has no such field
  void summary?.nope;
  const key = keys.ok ? keys.data.items[0] : undefined;
  // @ts-expect-error -- undescribed() takes only what the description leaves as a bare object
  if (key) undescribed<{ id: number }>(key);
}
