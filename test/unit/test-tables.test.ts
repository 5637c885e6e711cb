import { getTableName } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../worker/src/adapters/db/sqlite/sqlite.schema.js';
import { TABLES_CHILD_FIRST } from '../support/tables.js';

describe('the test harnesses’ table list', () => {
  it('holds every table of the schema once', () => {
    expect([...TABLES_CHILD_FIRST].sort()).toEqual(Object.values(schema).map(getTableName).sort());
  });

  it('puts every table before the tables it references', () => {
    for (const table of Object.values(schema)) {
      for (const fk of getTableConfig(table).foreignKeys) {
        const child = TABLES_CHILD_FIRST.indexOf(getTableName(table));
        const parent = TABLES_CHILD_FIRST.indexOf(getTableName(fk.reference().foreignTable));
        expect(child, `${getTableName(table)} before ${getTableName(fk.reference().foreignTable)}`).toBeLessThan(
          parent,
        );
      }
    }
  });
});
