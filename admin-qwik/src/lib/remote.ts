import type { Result } from './result';

/** What a screen holds for data it fetches in the browser. Plain data, so Qwik can serialise it. */
export type Remote<T> = { state: 'loading' } | { state: 'ready'; data: T } | { state: 'error'; message: string };

export function toRemote<T>(result: Result<T>): Remote<T> {
  return result.ok ? { state: 'ready', data: result.data } : { state: 'error', message: result.message };
}
