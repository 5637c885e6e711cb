import type { LastApply, SwitchRequest } from '../../../worker/src/ports/update-feed.ts';

/** The shapes of releases/supervisor.json and of the server's IPC requests (types only). */

/** A release as the state file records it: its version, its directory relative to the install, its database backup. */
export interface ReleaseRef {
  version: string;
  dir: string;
  backup: string | null;
}

/** A request from the server over IPC (worker/src/adapters/update/supervisor-switcher.ts). */
export type UpdateMessage = SwitchRequest & { type: 'cms.update'; id: string };

export interface Preparing {
  id: string;
  operation: SwitchRequest['operation'];
  phase: 'preparing';
  version: string;
  actorId: string | null;
  since: string;
}

/** After the switch: `to` is current (on trial), `from` is what a revert goes back to. */
export interface Switching extends Omit<Preparing, 'phase'> {
  phase: 'trial' | 'reverting';
  from: ReleaseRef;
  to: ReleaseRef;
  keepPrevious: ReleaseRef | null;
  toRestore: string | null;
  restored: boolean;
  attempts: number;
  reason?: string;
}

/** releases/supervisor.json; the server reads previous, pending and lastApply from it. */
export interface SupervisorState {
  schema: 'edge-cms.supervisor/1';
  current: { version: string; dir: string };
  previous: ReleaseRef | null;
  pending: Preparing | Switching | null;
  lastApply: LastApply | null;
  child: { pid: number | undefined; dir: string } | null;
}
