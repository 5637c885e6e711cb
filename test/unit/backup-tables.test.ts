import { getTableName } from 'drizzle-orm';
import { getTableConfig } from 'drizzle-orm/sqlite-core';
import { describe, expect, it } from 'vitest';
import * as tables from '../../worker/src/adapters/db/sqlite/sqlite.tables.js';
import { TABLE_EXPORTS } from '../../worker/src/app/services.js';
import { archiveRules } from '../../worker/src/features/backup/archive-rules.js';
import { exportedTables } from '../../worker/src/features/backup/backup-tables.repository.js';

const EXPORTED = exportedTables(TABLE_EXPORTS);

describe('what the archive holds (features/backup/backup-tables.repository.ts and the features’ own tables)', () => {
  it('decides for every table', () => {
    expect(Object.keys(TABLE_EXPORTS).sort()).toEqual(Object.keys(tables).sort());
  });

  it('lists exported tables parents first, so an import never inserts a row before what it references', () => {
    const byKey = new Map(Object.entries(tables));
    const order: string[] = EXPORTED.map((key) => getTableName(byKey.get(key)!));
    for (const [i, key] of EXPORTED.entries()) {
      for (const fk of getTableConfig(byKey.get(key)!).foreignKeys) {
        const parent = getTableName(fk.reference().foreignTable);
        if (order.includes(parent)) expect(order.indexOf(parent), `${order[i]} -> ${parent}`).toBeLessThan(i);
        // A child is never exported without what it references.
        else throw new Error(`${order[i]} is exported but its parent ${parent} is not`);
      }
    }
  });

  it('holds each exported table’s archive rules in one place: archive-rules.ts or its feature’s export decision', () => {
    const written = archiveRules({ maxUploadBytes: 1, maxImagePixels: 1 });
    const declared = Object.entries(TABLE_EXPORTS).filter(([, e]) => e.export && e.rules !== undefined);
    expect(declared.map(([name]) => name)).toContain('redirects');
    for (const [name] of declared) expect(written, name).not.toHaveProperty(name);
  });
});
