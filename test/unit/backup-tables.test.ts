import { getTableName } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as schema from '../../worker/src/adapters/db/sqlite/sqlite.schema.js';
import { TABLE_EXPORTS } from '../../worker/src/app/services.js';
import { exportedTables } from '../../worker/src/features/backup/backup-tables.repository.js';

const EXPORTED = exportedTables(TABLE_EXPORTS);

describe('what the archive holds (features/backup/backup-tables.repository.ts and the features’ own tables)', () => {
  it('decides for every table of the schema', () => {
    expect(Object.keys(TABLE_EXPORTS).sort()).toEqual(Object.keys(schema).sort());
  });

  it('lists exported tables parents first, so an import never inserts a row before what it references', () => {
    const tables = new Map(Object.entries(schema));
    const order: string[] = EXPORTED.map((key) => getTableName(tables.get(key)!));
    for (const [i, key] of EXPORTED.entries()) {
      for (const fk of getTableConfig(tables.get(key)!).foreignKeys) {
        const parent = getTableName(fk.reference().foreignTable);
        if (order.includes(parent)) expect(order.indexOf(parent), `${order[i]} -> ${parent}`).toBeLessThan(i);
        // A child is never exported without what it references.
        else throw new Error(`${order[i]} is exported but its parent ${parent} is not`);
      }
    }
  });
});
