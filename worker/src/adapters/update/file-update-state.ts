import { mkdir, open, readFile, rename } from 'node:fs/promises';
import path from 'node:path';
import type { UpdateState, UpdateStateStore } from '../../ports/update-feed.js';
import { EMPTY_UPDATE_STATE } from './memory-update-state.js';

/**
 * Node: the update state as one JSON file (e.g. releases/update-state.json),
 * replaced atomically (write, fsync, rename). A missing file is the empty
 * state; an unreadable one is an error, never silently a sequence of 0.
 */
export function createFileUpdateState(file: string): UpdateStateStore {
  return {
    async load() {
      let text: string;
      try {
        text = await readFile(file, 'utf8');
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code === 'ENOENT') return structuredClone(EMPTY_UPDATE_STATE);
        throw e;
      }
      const s = JSON.parse(text) as UpdateState;
      if (!Number.isSafeInteger(s.highestSequenceSeen) || s.highestSequenceSeen < 0)
        throw new Error(`${file}: highestSequenceSeen is not a whole number`);
      return {
        highestSequenceSeen: s.highestSequenceSeen,
        lastCheckedAt: s.lastCheckedAt ?? null,
        latest: s.latest ?? null,
        staged: s.staged ?? null,
        reportedApplyId: s.reportedApplyId ?? null,
      };
    },
    async save(state) {
      await mkdir(path.dirname(file), { recursive: true });
      const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
      const handle = await open(tmp, 'w', 0o600);
      try {
        await handle.writeFile(`${JSON.stringify(state, null, 2)}\n`);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(tmp, file);
    },
  };
}
