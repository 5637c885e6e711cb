import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { LastApply, ReleaseSwitcher, SwitcherStatus, SwitchRequest } from '../../ports/update-feed.js';

/** The IPC end of the process the supervisor started (`process` when process.send exists). */
export interface SupervisorChannel {
  send?(message: unknown): boolean;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

interface SupervisorFile {
  previous?: { version: string } | null;
  pending?: { operation: 'apply' | 'rollback'; version: string; since: string } | null;
  lastApply?: LastApply | null;
}

/** How long the supervisor has to answer a request before the route gives up (it answers at once). */
const REPLY_TIMEOUT_MS = 10_000;

/**
 * The server's side of the handshake with scripts/supervisor.ts: requests
 * go over the IPC channel ({ type: 'cms.update', id, operation, version,
 * actorId } → { type: 'cms.update.reply', id, accepted, message }); status
 * is read from the supervisor's state file, which only the supervisor
 * writes. Without a channel the server is unsupervised.
 */
export function createSupervisorSwitcher(stateFile: string, channel: SupervisorChannel | null): ReleaseSwitcher {
  return {
    async status(): Promise<SwitcherStatus> {
      let file: SupervisorFile = {};
      try {
        file = JSON.parse(await readFile(stateFile, 'utf8')) as SupervisorFile;
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== 'ENOENT') throw e;
      }
      const pending = file.pending
        ? { operation: file.pending.operation, version: file.pending.version, since: file.pending.since }
        : null;
      return {
        supervised: channel?.send !== undefined,
        previous: file.previous?.version ?? null,
        pending,
        lastApply: file.lastApply ?? null,
      };
    },

    request(req: SwitchRequest) {
      const send = channel?.send;
      if (!channel || !send)
        return Promise.resolve({ accepted: false, message: 'this server is not running under the supervisor' });
      const id = randomUUID();
      return new Promise((resolve) => {
        const done = (answer: { accepted: boolean; message: string | null }) => {
          clearTimeout(timer);
          channel.off('message', listener);
          resolve(answer);
        };
        const listener = (m: unknown) => {
          const reply = m as { type?: string; id?: string; accepted?: boolean; message?: string | null };
          if (reply?.type === 'cms.update.reply' && reply.id === id)
            done({ accepted: reply.accepted === true, message: reply.message ?? null });
        };
        const timer = setTimeout(
          () => done({ accepted: false, message: 'the supervisor did not answer' }),
          REPLY_TIMEOUT_MS,
        );
        channel.on('message', listener);
        send.call(channel, { type: 'cms.update', id, ...req });
      });
    },
  };
}
