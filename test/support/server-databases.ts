import { randomBytes } from 'node:crypto';

/**
 * A fresh, empty database on the test servers for each API harness, dropped
 * afterwards, so suites can run side by side. When a server is unreachable
 * this throws: the suite fails, it never skips.
 */
export const TEST_PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
export const TEST_MYSQL_URL = process.env.TEST_MYSQL_URL ?? 'mysql://root@127.0.0.1:3306/test';

export interface FreshDatabase {
  url: string;
  drop(): Promise<void>;
}

const freshName = () => `cms_api_${randomBytes(6).toString('hex')}`;

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

export async function freshPostgresDatabase(): Promise<FreshDatabase> {
  const { default: postgres } = await import('postgres');
  const admin = postgres(TEST_PG_URL, { max: 1, onnotice: () => {}, connect_timeout: 5 });
  const name = freshName();
  try {
    await admin.unsafe(`CREATE DATABASE ${name}`);
    // Throwaway data: a commit need not wait for its WAL flush (visibility to other sessions is unchanged).
    await admin.unsafe(`ALTER DATABASE ${name} SET synchronous_commit = off`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(TEST_PG_URL, name),
    async drop() {
      const sql = postgres(TEST_PG_URL, { max: 1, onnotice: () => {} });
      try {
        await sql.unsafe(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await sql.end();
      }
    },
  };
}

export async function freshMysqlDatabase(): Promise<FreshDatabase> {
  const mysql = await import('mysql2/promise');
  const name = freshName();
  const connect = () => mysql.createConnection({ uri: TEST_MYSQL_URL, connectTimeout: 5000 });
  const admin = await connect();
  try {
    await admin.query(`CREATE DATABASE ${name} CHARACTER SET utf8mb4 COLLATE utf8mb4_bin`);
  } finally {
    await admin.end();
  }
  return {
    url: withDatabase(TEST_MYSQL_URL, name),
    async drop() {
      const c = await connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name}`);
      } finally {
        await c.end();
      }
    },
  };
}
