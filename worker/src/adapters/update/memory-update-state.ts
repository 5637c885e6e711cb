import type { UpdateState, UpdateStateStore } from '../../ports/update-feed.js';

export const EMPTY_UPDATE_STATE: UpdateState = {
  highestSequenceSeen: 0,
  lastCheckedAt: null,
  latest: null,
  staged: null,
  reportedApplyId: null,
};

/** Per-process state: Workers (one isolate's view) and tests. */
export function createMemoryUpdateState(initial: UpdateState = EMPTY_UPDATE_STATE): UpdateStateStore {
  let state = structuredClone(initial);
  return {
    load: async () => structuredClone(state),
    save: async (next) => {
      state = structuredClone(next);
    },
  };
}
