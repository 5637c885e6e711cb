/**
 * Raw access to the database an API harness's app runs on, for tests that
 * look at rows the API does not show (the outbox) or make the database
 * refuse a write (`failInserts`). Runs in workerd too: no Node imports here.
 */
export interface TestDatabase {
  dialect: 'sqlite' | 'mysql' | 'postgres';
  /** One statement; its rows, if any. */
  query(statement: string): Promise<Record<string, unknown>[]>;
}

/** Rows in `table`. */
export async function countRows(db: TestDatabase, table: string): Promise<number> {
  const [row] = await db.query(`SELECT count(*) AS n FROM ${table}`);
  return Number(row?.n);
}

/**
 * Makes every insert (or update) of `table` fail, as a real database
 * refuses a row (a trigger), until the returned function removes it: the
 * write that writes there fails in the middle of its transaction.
 */
export async function failInserts(
  db: TestDatabase,
  table: string,
  on: 'INSERT' | 'UPDATE' = 'INSERT',
): Promise<() => Promise<void>> {
  const name = `test_fail_${on.toLowerCase()}_${table}`;
  if (db.dialect === 'sqlite') {
    await db.query(
      `CREATE TRIGGER ${name} BEFORE ${on} ON ${table} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
  } else if (db.dialect === 'mysql') {
    await db.query(
      `CREATE TRIGGER ${name} BEFORE ${on} ON ${table} FOR EACH ROW SIGNAL SQLSTATE '45000' SET MESSAGE_TEXT = 'injected failure'`,
    );
  } else {
    await db.query(
      `CREATE OR REPLACE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN RAISE EXCEPTION 'injected failure'; END $$`,
    );
    await db.query(`CREATE TRIGGER ${name} BEFORE ${on} ON ${table} FOR EACH ROW EXECUTE FUNCTION ${name}()`);
  }
  return async () => {
    await db.query(db.dialect === 'postgres' ? `DROP TRIGGER ${name} ON ${table}` : `DROP TRIGGER ${name}`);
  };
}
