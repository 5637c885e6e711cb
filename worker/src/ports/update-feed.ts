/**
 * What the update service (core/releases/update.service.ts) needs from the
 * outside: the feed over HTTP, somewhere to remember what it has seen, and
 * (Node only) somewhere to stage a verified release. Shapes here are plain
 * data; the core verifies everything it reads through them.
 */
export interface UpdateFeed {
  /** The feed's URL (`UPDATE_FEED_URL`); artifact names resolve against it. */
  readonly url: string;
  /** An HTTP GET. The caller bounds how much of the body it reads. */
  get(url: string, signal?: AbortSignal): Promise<Response>;
}

export interface StagedReleaseInfo {
  version: string;
  sequence: number;
  stagedAt: string;
}

export interface UpdateState {
  /** Highest manifest sequence ever accepted; never goes down (rollback protection). */
  highestSequenceSeen: number;
  lastCheckedAt: string | null;
  /** The latest verified manifest (the signed body), kept for status; null before the first check. */
  latest: unknown;
  staged: StagedReleaseInfo | null;
  /** The supervisor's last outcome (LastApply.id) already written to the activity log. */
  reportedApplyId?: string | null;
}

export interface UpdateStateStore {
  load(): Promise<UpdateState>;
  /** Must be durable before it resolves (a crash must not lower highestSequenceSeen). */
  save(state: UpdateState): Promise<void>;
}

export interface ReleaseToStage {
  version: string;
  sequence: number;
  artifactName: string;
  /** The signed manifest envelope, kept beside the artifact. */
  signedManifest: unknown;
}

/** Node: writes a verified artifact to releases/<version>/, all or nothing. */
export interface ReleaseStager {
  stage(release: ReleaseToStage, bytes: Uint8Array): Promise<void>;
}

/** What the supervisor (scripts/supervisor.ts) last did, as recorded in releases/supervisor.json. */
export interface LastApply {
  /** The request's id; the activity log records each outcome once. */
  id: string;
  operation: 'apply' | 'rollback';
  /** The release switched to (or attempted). */
  version: string;
  from: string;
  /** applied: running it; rolled_back: it was not healthy, `from` runs again; failed: nothing was switched. */
  outcome: 'applied' | 'rolled_back' | 'failed';
  at: string;
  reason: string | null;
  actorId: string | null;
}

export interface SwitcherStatus {
  /** False when the server was started without the supervisor: no apply or rollback. */
  supervised: boolean;
  /** The release a rollback goes back to. */
  previous: string | null;
  pending: { operation: 'apply' | 'rollback'; version: string; since: string } | null;
  lastApply: LastApply | null;
}

export interface SwitchRequest {
  operation: 'apply' | 'rollback';
  /** apply: the staged version; rollback: null (the supervisor's previous release). */
  version: string | null;
  actorId: string | null;
}

/** Node under the supervisor: asks it to switch releases (it restarts this process). */
export interface ReleaseSwitcher {
  status(): Promise<SwitcherStatus>;
  /** Resolves once the supervisor accepted (it then stops this server) or refused, with why. */
  request(req: SwitchRequest): Promise<{ accepted: boolean; message: string | null }>;
}
