import type { SystemStateRepository } from '../../ports/repositories.js';
import type { UpdateState, UpdateStateStore } from '../../ports/update-feed.js';
import { EMPTY_UPDATE_STATE } from './memory-update-state.js';

const KEY = 'update';

/**
 * The update check's state in the database (Workers: D1), shared by every
 * isolate. Versioned by the highest feed sequence seen, so a slow isolate
 * that read an older feed can never lower it (rollback protection holds
 * across isolates and restarts).
 */
export function createDbUpdateState(repo: SystemStateRepository, now: () => Date): UpdateStateStore {
  return {
    async load() {
      const row = await repo.get(KEY);
      if (!row) return structuredClone(EMPTY_UPDATE_STATE);
      try {
        return {
          ...structuredClone(EMPTY_UPDATE_STATE),
          ...(JSON.parse(row.value) as Partial<UpdateState>),
          highestSequenceSeen: row.version,
        };
      } catch {
        // A damaged row keeps its sequence: the protection it carries is not given up.
        return { ...structuredClone(EMPTY_UPDATE_STATE), highestSequenceSeen: row.version };
      }
    },
    async save(state) {
      await repo.save(KEY, JSON.stringify(state), state.highestSequenceSeen, now());
    },
  };
}
