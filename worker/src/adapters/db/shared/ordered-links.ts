import { and, eq, exists, inArray, type SQL, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { ErrorIssue } from '../../../wire/errors.js';
import { chunk, invalid, MAX_PARAMS, requireId } from './repository-support.js';
import type { SqlDb, SqlKit, WriteStatement } from './sql-kit.js';

// Three parameters per link row; keeps each insert under D1's parameter cap.
const LINKS_PER_INSERT = Math.floor(MAX_PARAMS / 3);

/** A value selected as a column of an INSERT … SELECT, typed by the column it fills. */
const bound = <T>(value: T, column: Parameters<typeof sql.param>[1] & { name: string }) =>
  sql`${sql.param(value, column)}`.as(column.name);

type Tables = SqlKit['tables'];
/** The link tables: (articleId, the other side's id, position), one row per link. */
type LinkTable = Tables['articleAuthors'] | Tables['articleTags'];

export interface LinkSpec {
  /** The link table. */
  table: LinkTable;
  /** Its column naming the other side (`authorId`, `tagId`): also the row property. */
  field: 'authorId' | 'tagId';
  /** The other side's `id` column, to name the ids that do not exist. */
  targetId: SQLiteColumn;
  /** The input's name (`authorIds`) and one item's (`author`), for error messages. */
  input: string;
  noun: string;
}

/**
 * An article's ordered links to authors or tags as the articles repository
 * stores them: read with the article (ordered-ids.ts), written inside the article's
 * own batch (so a refused id leaves nothing half-written), optionally only
 * while the article is at a version.
 */
export function createOrderedLinks(kit: SqlKit, spec: LinkSpec) {
  const { db } = kit;
  const { articles } = kit.tables;
  // Both link tables have these columns with the same types; drizzle cannot
  // type a builder over a union of tables, so the shared view is named once here.
  const table = spec.table as Tables['articleTags'];
  const other = (spec.table as unknown as Record<LinkSpec['field'], Tables['articleTags']['tagId']>)[spec.field];
  const row = (articleId: string, id: string, position: number) =>
    ({ articleId, [spec.field]: id, position }) as Tables['articleTags']['$inferInsert'];

  return {
    /** The input checked: UUIDs (normalised), none twice. */
    idsOf(input: string[] | undefined): string[] | undefined {
      if (input === undefined) return undefined;
      const ids = input.map((id, i) => requireId(id, `${spec.input}.${i}`));
      if (new Set(ids).size !== ids.length)
        throw invalid(spec.input, `${spec.input} must not repeat ${article(spec.noun)}`);
      return ids;
    },

    /**
     * The writes that give an article these links, in order; `replace` drops
     * the ones it had first. With `onlyWhere` (a condition on the article's
     * row: its version), every write applies only while the article matches
     * it; the caller locks the row first (see the articles repository).
     */
    writes(tx: SqlDb, articleId: string, ids: string[], replace: boolean, onlyWhere?: SQL): WriteStatement[] {
      if (onlyWhere === undefined) {
        const rows = ids.map((id, position) => row(articleId, id, position));
        return [
          ...(replace ? [tx.delete(table).where(eq(table.articleId, articleId))] : []),
          ...chunk(rows, LINKS_PER_INSERT).map((part) => tx.insert(table).values(part)),
        ];
      }
      const matches = exists(tx.select({ id: articles.id }).from(articles).where(onlyWhere));
      return [
        ...(replace ? [tx.delete(table).where(and(eq(table.articleId, articleId), matches))] : []),
        ...ids.map((id, position) =>
          tx.insert(table).select(
            tx
              .select({
                articleId: bound(articleId, table.articleId),
                [spec.field]: bound(id, other),
                position: bound(position, table.position),
              } as { articleId: SQL.Aliased<string>; tagId: SQL.Aliased<string>; position: SQL.Aliased<number> })
              .from(articles)
              .where(onlyWhere),
          ),
        ),
      ];
    },

    /** After a foreign-key failure: the given ids that do not exist, by their place in the input. */
    async missing(ids: string[] | undefined): Promise<ErrorIssue[]> {
      if (!ids || ids.length === 0) return [];
      const known = new Set<string>();
      for (const part of chunk(ids, MAX_PARAMS)) {
        const rows = await db
          .select({ id: spec.targetId })
          .from(spec.targetId.table)
          .where(inArray(spec.targetId, part));
        for (const r of rows) known.add(r.id as string);
      }
      return ids.flatMap((id, i) =>
        known.has(id) ? [] : [{ path: `${spec.input}.${i}`, message: `${spec.noun} ${id} does not exist` }],
      );
    },
  };
}

const article = (noun: string) => (/^[aeiou]/.test(noun) ? `an ${noun}` : `a ${noun}`);
