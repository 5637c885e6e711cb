import type { Clock, Logger } from '../../ports/runtime.js';
import type {
  LastApply,
  ReleaseStager,
  ReleaseSwitcher,
  UpdateFeed,
  UpdateState,
  UpdateStateStore,
} from '../../ports/update-feed.js';
import type { UpdateStatusDto } from '../../wire/version.schema.js';
import { downloadArtifact } from './download.js';
import { type Manifest, ManifestSchema } from './manifest.js';
import { activeKeyCount, PINNED_RELEASE_KEYS, type PinnedKey } from './pinned-keys.js';
import { ReleaseRefusedError, refuse } from './refusal.js';
import { compareVersions } from './semver.js';
import { verifyFeed } from './verify-manifest.js';

/** Where an update is a deployment, apply and rollback say how to do it instead. */
export const WORKERS_APPLY_MESSAGE =
  'On Cloudflare Workers an update is a deployment: `wrangler versions upload` then `wrangler versions deploy` (or `npm run deploy`); roll back with `wrangler rollback`. See docs/releases.md, "Workers".';
/** Said plainly instead of a refusal per release: with no active key, nothing can ever verify. */
export const NO_TRUSTED_KEY_MESSAGE =
  'No trusted release key is configured: this build pins no active release-signing key, so no update can be verified. See docs/releases.md, "Pinning keys".';
const UNSUPERVISED_MESSAGE =
  'This server was not started by the supervisor, so it cannot restart into another release. Start it with `NODE_ENV=production npm start` (docs/releases.md, "The supervisor").';

/** An activity log entry about the supervisor's work (written by the system, not a user). */
export interface UpdateActivity {
  action: 'update.apply' | 'update.rollback';
  version: string;
  details: Record<string, unknown>;
}

export class UpdatesUnavailableError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UpdatesUnavailableError';
  }
}

export interface UpdateServiceDeps {
  /** Null when UPDATE_FEED_URL is unset: status only, no checks. */
  feed: UpdateFeed | null;
  store: UpdateStateStore;
  /** Null where releases are not staged (Workers deploy through wrangler). */
  stager: ReleaseStager | null;
  clock: Clock;
  logger: Logger;
  currentVersion: string;
  pinnedKeys?: readonly PinnedKey[];
  /** Node: the supervisor handshake. Absent on Workers. */
  switcher?: ReleaseSwitcher | null;
  /** Bounds one feed read or artifact download. */
  timeoutMs?: number;
}

/** The feed document is small; anything past this is refused unread. */
const MAX_FEED_BYTES = 4 * 1024 * 1024;

/**
 * Checks the feed, and on Node downloads and stages the latest release.
 * Every refusal (ReleaseRefusedError) is logged, leaves the state and the
 * staging area as they were, and is rethrown for the route to answer 400.
 */
export class UpdateService {
  private readonly pinnedKeys: readonly PinnedKey[];
  /** State changes one at a time: a read-modify-write must never undo another's (highestSequenceSeen only grows). */
  private queue: Promise<unknown> = Promise.resolve();
  constructor(private readonly deps: UpdateServiceDeps) {
    this.pinnedKeys = deps.pinnedKeys ?? PINNED_RELEASE_KEYS;
  }

  async status(): Promise<UpdateStatusDto> {
    return this.toDto(await this.deps.store.load());
  }

  /** Asks the supervisor to restart into the staged release (202: it answers before the switch). */
  async apply(actorId: string | null): Promise<UpdateStatusDto> {
    const switcher = await this.supervisor();
    const state = await this.deps.store.load();
    const staged = state.staged;
    if (!staged || compareVersions(staged.version, this.deps.currentVersion) <= 0) {
      throw new UpdatesUnavailableError('no release newer than the running one is staged; download it first');
    }
    return this.ask(switcher, { operation: 'apply', version: staged.version, actorId });
  }

  /** Asks the supervisor to go back to the previous release (and, on SQLite, its database backup). */
  async rollback(actorId: string | null): Promise<UpdateStatusDto> {
    const switcher = await this.supervisor();
    if (!(await switcher.status()).previous)
      throw new UpdatesUnavailableError('there is no previous release to roll back to');
    return this.ask(switcher, { operation: 'rollback', version: null, actorId });
  }

  /**
   * Writes the supervisor's last outcome to the activity log once (the
   * server calls it when it starts, which is right after every switch):
   * an apply or rollback that ended, and above all an automatic rollback.
   * The entry is written before it is marked, so a crash in between
   * repeats it rather than losing it.
   */
  async reportOutcome(record: (activity: UpdateActivity) => Promise<void>): Promise<void> {
    try {
      // Read-only first: a status request never waits behind a download when there is nothing to write.
      if (await this.unreported())
        await this.exclusive(async () => {
          const last = await this.unreported();
          if (!last) return;
          const automatic = last.outcome === 'rolled_back';
          await record({
            action: automatic || last.operation === 'rollback' ? 'update.rollback' : 'update.apply',
            version: automatic ? last.from : last.version,
            details: {
              operation: last.operation,
              outcome: last.outcome,
              version: last.version,
              from: last.from,
              at: last.at,
              reason: last.reason,
              requestedBy: last.actorId,
              automatic,
            },
          });
          await this.deps.store.save({ ...(await this.deps.store.load()), reportedApplyId: last.id });
        });
    } catch (err) {
      // The log is a record, not a gate: status and updates go on without it.
      this.deps.logger.error('the supervisor outcome was not written to the activity log', err);
    }
  }

  private async unreported(): Promise<LastApply | null> {
    const last = this.deps.switcher ? (await this.deps.switcher.status()).lastApply : null;
    return last && (await this.deps.store.load()).reportedApplyId !== last.id ? last : null;
  }

  private async supervisor(): Promise<ReleaseSwitcher> {
    const switcher = this.deps.switcher;
    if (!switcher) throw new UpdatesUnavailableError(WORKERS_APPLY_MESSAGE);
    const status = await switcher.status();
    if (!status.supervised) throw new UpdatesUnavailableError(UNSUPERVISED_MESSAGE);
    if (status.pending)
      throw new UpdatesUnavailableError(`an ${status.pending.operation} to ${status.pending.version} is in progress`);
    return switcher;
  }

  private async ask(
    switcher: ReleaseSwitcher,
    req: Parameters<ReleaseSwitcher['request']>[0],
  ): Promise<UpdateStatusDto> {
    const answer = await switcher.request(req);
    if (!answer.accepted)
      throw new UpdatesUnavailableError(`the supervisor refused: ${answer.message ?? 'no reason given'}`);
    this.deps.logger.info(`update ${req.operation} requested`, { version: req.version, actorId: req.actorId });
    return this.status();
  }

  /** Reads and verifies the feed now; remembers its sequence and latest release. */
  async check(): Promise<UpdateStatusDto> {
    const { state } = await this.exclusive(() => this.checkFeed());
    return this.toDto(state);
  }

  private exclusive<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => {});
    return run;
  }

  /** Check, then download, verify and stage the latest release (when newer than the running one). */
  download(): Promise<UpdateStatusDto> {
    return this.exclusive(() => this.downloadNow());
  }

  private async downloadNow(): Promise<UpdateStatusDto> {
    const stager = this.deps.stager;
    if (!stager) throw new UpdatesUnavailableError(WORKERS_APPLY_MESSAGE);
    const { state, latest, releases, signedLatest } = await this.checkFeed();
    if (compareVersions(latest.version, this.deps.currentVersion) <= 0) return this.toDto(state);
    if (state.staged?.version === latest.version && state.staged.sequence === latest.sequence) return this.toDto(state);
    const artifact = latest.artifacts[0]!;
    const feed = this.deps.feed!;
    try {
      const bytes = await downloadArtifact(latest, artifact.name, new URL(artifact.name, feed.url).href, {
        fetch: ((url: string, init?: { signal?: AbortSignal }) => feed.get(url, init?.signal)) as typeof fetch,
        signal: this.deadline(),
        others: releases,
      });
      await stager.stage(
        {
          version: latest.version,
          sequence: latest.sequence,
          artifactName: artifact.name,
          signedManifest: signedLatest,
        },
        bytes,
      );
    } catch (e) {
      this.logRefusal(e);
      throw e;
    }
    const next: UpdateState = {
      ...state,
      staged: { version: latest.version, sequence: latest.sequence, stagedAt: this.deps.clock.now().toISOString() },
    };
    await this.deps.store.save(next);
    this.deps.logger.info('release staged', { version: latest.version, sequence: latest.sequence });
    return this.toDto(next);
  }

  private async checkFeed() {
    const feed = this.deps.feed;
    if (!feed) throw new UpdatesUnavailableError('no update feed is configured (UPDATE_FEED_URL)');
    if (activeKeyCount(this.pinnedKeys) === 0) throw new UpdatesUnavailableError(NO_TRUSTED_KEY_MESSAGE);
    const state = await this.deps.store.load();
    try {
      const doc = await this.readFeed(feed);
      const verified = await verifyFeed(doc, {
        pinnedKeys: this.pinnedKeys,
        currentVersion: this.deps.currentVersion,
        highestSequenceSeen: state.highestSequenceSeen,
        now: this.deps.clock.now(),
      });
      const signedLatest = (doc as { releases: { signed?: { sequence?: unknown } }[] }).releases.find(
        (r) => r.signed?.sequence === verified.latest.sequence,
      );
      const next: UpdateState = {
        ...state,
        highestSequenceSeen: Math.max(state.highestSequenceSeen, verified.latest.sequence),
        lastCheckedAt: this.deps.clock.now().toISOString(),
        latest: verified.latest,
      };
      await this.deps.store.save(next);
      return { state: next, latest: verified.latest, releases: verified.releases, signedLatest };
    } catch (e) {
      this.logRefusal(e);
      throw e;
    }
  }

  private async readFeed(feed: UpdateFeed): Promise<unknown> {
    let res: Response;
    try {
      res = await feed.get(feed.url, this.deadline());
    } catch (e) {
      return refuse('download_failed', `feed: ${(e as Error).message}`);
    }
    if (res.status !== 200 || !res.body) {
      await res.body?.cancel().catch(() => {});
      return refuse('download_failed', `feed: the server answered ${res.status}`);
    }
    const reader = res.body.getReader();
    const chunks: Uint8Array[] = [];
    let size = 0;
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        size += value.byteLength;
        if (size > MAX_FEED_BYTES) {
          await reader.cancel().catch(() => {});
          return refuse('malformed', `the feed is larger than ${MAX_FEED_BYTES} bytes`);
        }
        chunks.push(value);
      }
    } catch (e) {
      if (e instanceof ReleaseRefusedError) throw e;
      return refuse('download_failed', `feed: ${(e as Error).message}`);
    }
    const bytes = new Uint8Array(size);
    let at = 0;
    for (const c of chunks) {
      bytes.set(c, at);
      at += c.byteLength;
    }
    try {
      return JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
    } catch {
      return refuse('malformed', 'the feed is not JSON');
    }
  }

  private deadline(): AbortSignal | undefined {
    return this.deps.timeoutMs ? AbortSignal.timeout(this.deps.timeoutMs) : undefined;
  }

  private logRefusal(e: unknown) {
    if (e instanceof ReleaseRefusedError) this.deps.logger.error(`update refused (${e.reason})`, e);
  }

  private async toDto(state: UpdateState): Promise<UpdateStatusDto> {
    const sw = this.deps.switcher ? await this.deps.switcher.status() : null;
    const parsed = state.latest === null || state.latest === undefined ? null : ManifestSchema.safeParse(state.latest);
    const latest: Manifest | null = parsed?.success ? parsed.data : null;
    return {
      current: this.deps.currentVersion,
      latest: latest?.version ?? null,
      available: latest !== null && compareVersions(latest.version, this.deps.currentVersion) > 0,
      // A staged release that is now running (or older) is nothing to apply.
      staged:
        state.staged && compareVersions(state.staged.version, this.deps.currentVersion) > 0
          ? state.staged.version
          : null,
      lastCheckedAt: state.lastCheckedAt,
      notes: latest?.notes ?? null,
      supervised: sw?.supervised ?? false,
      previous: sw?.previous ?? null,
      pending: sw?.pending ?? null,
      lastApply: sw?.lastApply ?? null,
      trustedKeys: activeKeyCount(this.pinnedKeys),
    };
  }
}
