/**
 * Persistence ports. Every adapter (D1, Node SQLite, MariaDB/MySQL, PostgreSQL)
 * passes the same contract suite. Adapters translate driver errors into
 * DomainError: unique violations → 'conflict', an unreachable database →
 * 'unavailable'. Each feature adds its own repository to `Repositories` in
 * its port file (`features/<name>/<name>.port.ts`); the platform's are here.
 */

/**
 * Named, expiring leases: several Node instances on one database, or
 * overlapping cron invocations, agree on who does a piece of work.
 */
export interface LeasesRepository {
  /**
   * True when `holder` now holds `name` until `expiresAt`: the lease was free,
   * expired, or already this holder's. Of concurrent acquirers exactly one wins.
   */
  acquire(name: string, holder: string, now: Date, expiresAt: Date): Promise<boolean>;
  /** Gives the lease up if `holder` still holds it. */
  release(name: string, holder: string): Promise<void>;
  /** Who holds `name` unexpired at `now`, or null: what a refused caller is told is running. */
  holder(name: string, now: Date): Promise<string | null>;
}

/** Small documents the service keeps about itself, by key, each with a version that never goes down. */
export interface SystemStateRepository {
  get(key: string): Promise<{ value: string; version: number } | null>;
  /**
   * Stores the value unless the key already holds a higher version (a
   * concurrent writer that saw newer data wins). True when stored.
   */
  save(key: string, value: string, version: number, now: Date): Promise<boolean>;
}

export interface Repositories {
  leases: LeasesRepository;
  systemState: SystemStateRepository;
  /** Resolves when the database answers; throws DomainError('unavailable') otherwise. */
  ping(): Promise<void>;
}
