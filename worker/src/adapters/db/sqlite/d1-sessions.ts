import { AsyncLocalStorage } from 'node:async_hooks';
import type { DatabaseSessions } from '../../../ports/edge-cache.js';

/**
 * The D1 Sessions API (read replication) under repositories built once per
 * isolate. The repositories keep prepared statements, which D1 binds to the
 * database or session that made them; so `db` hands out statements that
 * are made again, on each call, on the session of the request running
 * (found through AsyncLocalStorage), or on the database itself outside a
 * request (the cron, work after the response that no request started).
 */
export function createD1Sessions(d1: D1Database): { db: D1Database; sessions: DatabaseSessions } {
  const current = new AsyncLocalStorage<D1DatabaseSession>();
  const target = (): D1Database | D1DatabaseSession => current.getStore() ?? d1;

  class SessionStatement {
    constructor(
      readonly query: string,
      readonly values: unknown[],
    ) {}
    bind(...values: unknown[]) {
      return new SessionStatement(this.query, values);
    }
    made(): D1PreparedStatement {
      const statement = target().prepare(this.query);
      return this.values.length > 0 ? statement.bind(...this.values) : statement;
    }
    first(column?: string) {
      return column === undefined ? this.made().first() : this.made().first(column);
    }
    run() {
      return this.made().run();
    }
    all() {
      return this.made().all();
    }
    raw(options?: { columnNames?: boolean }) {
      return options?.columnNames ? this.made().raw({ columnNames: true }) : this.made().raw();
    }
  }

  const db = {
    prepare: (query: string) => new SessionStatement(query, []),
    batch: (statements: unknown[]) =>
      target().batch(statements.map((s) => (s instanceof SessionStatement ? s.made() : (s as D1PreparedStatement)))),
    exec: (query: string) => d1.exec(query),
    dump: () => d1.dump(),
    withSession: (constraint?: string) => d1.withSession(constraint),
  } as unknown as D1Database;

  return {
    db,
    sessions: {
      async run(start, work) {
        const session = d1.withSession(start);
        await current.run(session, work);
        return session.getBookmark();
      },
    },
  };
}
