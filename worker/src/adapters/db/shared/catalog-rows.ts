import { and, desc, eq, lt } from 'drizzle-orm';
import type { AnySQLiteColumn, SQLiteTable } from 'drizzle-orm/sqlite-core';
import type { DomainError } from '../../../core/domain/errors.js';
import { normalizeId, requireId, requireLimit } from './repository-support.js';
import type { SqlKit } from './sql-kit.js';

type Tables = SqlKit['tables'];
/** A catalogue table: rows of their own keyed by a UUID `id`, with `updatedAt` (any such table, no list of them). */
type CatalogTable = SQLiteTable & { id: AnySQLiteColumn; updatedAt: AnySQLiteColumn };

export interface CatalogRowsSpec<T extends CatalogTable, E> {
  table: T;
  /** Only where a field changes shape on the way out; without it the entity is the row. */
  toEntity?(row: T['$inferSelect']): E;
  /** What a unique violation on create or update means (a taken slug); without it, the driver's error stands. */
  uniqueConflict?: () => DomainError;
  /** What a foreign-key violation on delete means (articles still use the row); without it, the links cascade. */
  inUse?: () => DomainError;
}

/**
 * The reads and writes every catalogue repository (sites, authors, tags)
 * shares: by id, newest first with a keyset cursor, create, patch, delete,
 * with the database's refusals turned into the resource's conflicts. The
 * repositories keep what is theirs: which text fields to check, and reads of
 * their own (a tag's references).
 */
export function createCatalogRows<T extends CatalogTable, E = T['$inferSelect']>(
  kit: SqlKit,
  spec: CatalogRowsSpec<T, E>,
) {
  const { db } = kit;
  // drizzle cannot type a builder over a generic table; the columns used
  // here (`id`, `updatedAt`) are on every catalogue table, and rows are typed back as T's.
  const table = spec.table as unknown as Tables['tags'];
  const toEntity = (row: unknown): E => (spec.toEntity ? spec.toEntity(row as T['$inferSelect']) : (row as E));

  async function refusing<R>(write: () => Promise<R>, on: 'unique' | 'foreignKey'): Promise<R> {
    try {
      return await write();
    } catch (err) {
      if (on === 'unique' && spec.uniqueConflict && kit.isUniqueViolation(err)) throw spec.uniqueConflict();
      if (on === 'foreignKey' && spec.inUse && kit.isForeignKeyViolation(err)) throw spec.inUse();
      throw err;
    }
  }

  async function findById(id: string): Promise<E | null> {
    const key = normalizeId(id);
    if (key === null) return null;
    const [row] = await db.select().from(table).where(eq(table.id, key)).limit(1);
    return row ? toEntity(row) : null;
  }

  return {
    findById,

    /** The row whose unique `column` (a slug) holds `value`, or null: one read through the column's unique index. */
    async findByUnique(column: AnySQLiteColumn, value: string): Promise<E | null> {
      const [row] = await db.select().from(table).where(eq(column, value));
      return row ? toEntity(row) : null;
    },

    async create(row: T['$inferInsert'] & { id: string }): Promise<void> {
      const id = requireId(row.id, 'id');
      await refusing(() => db.insert(table).values({ ...row, id } as Tables['tags']['$inferInsert']), 'unique');
    },

    async list({ limit, beforeId }: { limit: number; beforeId?: string }): Promise<E[]> {
      const rows = await db
        .select()
        .from(table)
        .where(beforeId === undefined ? undefined : lt(table.id, requireId(beforeId, 'cursor')))
        .orderBy(desc(table.id))
        .limit(requireLimit(limit));
      return rows.map(toEntity);
    },

    /**
     * The fields given (undefined ones are left as they are) and `updatedAt`;
     * null when unknown. With `unchanged`, only while those columns still hold
     * those values, in the same statement: a check the caller made on what
     * it read cannot be undone by a write between its read and this one,
     * which then finds no row (null).
     */
    async update(
      id: string,
      patch: Partial<T['$inferSelect']>,
      now: Date,
      unchanged: Partial<T['$inferSelect']> = {},
    ): Promise<E | null> {
      const key = normalizeId(id);
      if (key === null) return null;
      const set = Object.fromEntries(Object.entries(patch).filter(([, v]) => v !== undefined));
      const columns = table as unknown as Record<string, AnySQLiteColumn>;
      const still = Object.entries(unchanged).map(([name, value]) => eq(columns[name]!, value));
      const result = await refusing(
        () =>
          db
            .update(table)
            .set({ ...set, updatedAt: now })
            .where(and(eq(table.id, key), ...still)),
        'unique',
      );
      return kit.affectedRows(result) === 0 ? null : findById(key);
    },

    /** False when unknown. */
    async delete(id: string): Promise<boolean> {
      const key = normalizeId(id);
      if (key === null) return false;
      return refusing(async () => kit.affectedRows(await db.delete(table).where(eq(table.id, key))) > 0, 'foreignKey');
    },
  };
}
