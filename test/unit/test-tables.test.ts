import { getTableName } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as tables from '../../worker/src/adapters/db/sqlite/sqlite.tables.js';
import { TABLES_CHILD_FIRST } from '../support/tables.js';

describe('the test harnesses’ table list', () => {
  it('holds every table once', () => {
    expect([...TABLES_CHILD_FIRST].sort()).toEqual(Object.values(tables).map(getTableName).sort());
  });

  it('puts every table before the tables it references', () => {
    for (const table of Object.values(tables)) {
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
