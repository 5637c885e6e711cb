import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';
import { type RunningS3rver, startS3rver } from './s3rver.js';
import { type FreshDatabase, freshMysqlDatabase, freshPostgresDatabase } from './server-databases.js';
import { type ServerProcess, startServer } from './server-process.js';

/**
 * Several real server processes (dist/node/server.mjs) as an operator runs
 * them: one fresh MySQL or PostgreSQL database, one S3 bucket (s3rver), the
 * activity log in the database, the same secret, behind a round-robin proxy.
 */
export interface ServerCluster {
  proxy: RoundRobinProxy;
  /** The instances still running, in start order (a stopped one is removed). */
  instances: ServerProcess[];
  /** Everything every instance printed, the stopped ones' too. */
  log(): string;
  /** SIGKILL: no graceful stop, requests in flight are cut. */
  kill(instance: ServerProcess): Promise<void>;
  stop(): Promise<void>;
}

export async function startCluster(
  db: 'postgres' | 'mysql',
  size: number,
  env: Record<string, string> = {},
): Promise<ServerCluster> {
  const cleanups: (() => Promise<void>)[] = [];
  const instances: ServerProcess[] = [];
  const gone: ServerProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  const stop = async () => {
    await proxy?.close();
    await Promise.all(instances.map((s) => s.stop()));
    for (const cleanup of cleanups.splice(0)) await cleanup().catch(() => undefined);
  };
  try {
    const database: FreshDatabase = db === 'postgres' ? await freshPostgresDatabase() : await freshMysqlDatabase();
    cleanups.unshift(database.drop);
    const s3: RunningS3rver = await startS3rver();
    cleanups.unshift(s3.stop);
    const cwd = await mkdtemp(path.join(tmpdir(), 'cms-cluster-'));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const shared = {
      DATABASE_URL: database.url,
      STORAGE_URL: `s3://${s3.bucket}?endpoint=${encodeURIComponent(s3.endpoint)}&region=${s3.region}&forcePathStyle=true`,
      S3_ACCESS_KEY_ID: s3.accessKeyId,
      S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
      JWT_SECRET: 'a cluster secret shared by every instance of it',
      ACTIVITY_LOG_STORE: 'database',
      ALLOW_LOG_MAILER: 'true',
      ...env,
    };
    // All at once on the empty database: each applies the migrations as it starts.
    const started = await Promise.allSettled(
      Array.from({ length: size }, async (_, i) => {
        // A directory each, as on separate hosts: only the database and the bucket are shared.
        const dir = path.join(cwd, `instance-${i}`);
        await mkdir(dir);
        return startServer(dir, shared);
      }),
    );
    for (const s of started) if (s.status === 'fulfilled') instances.push(s.value);
    const failed = started.find((s) => s.status === 'rejected');
    if (failed) throw (failed as PromiseRejectedResult).reason;
    proxy = await startRoundRobinProxy(() => instances.map((s) => s.url));
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    proxy,
    instances,
    log: () => [...gone, ...instances].map((s) => s.output()).join('\n'),
    async kill(instance) {
      await instance.stop('SIGKILL');
      instances.splice(instances.indexOf(instance), 1);
      gone.push(instance);
    },
    stop,
  };
}
