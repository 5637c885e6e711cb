/** Each table's place in the archive, by the schema's property name (app/services.ts `TABLE_EXPORTS`). */
export type TableExports = Readonly<Record<string, TableExport>>;

export type TableExport =
  | {
      readonly export: true;
      /** Columns left out of the archive (secrets, one-time codes); `fill` gives the value stored on import instead. */
      readonly omit?: readonly string[];
      readonly fill?: Readonly<Record<string, unknown>>;
      /**
       * What an imported row must be, declared by the feature that owns the
       * table (features/backup/archive-rules.ts holds the rules of the tables
       * written before features declared their own; a table has them in one
       * place only).
       */
      readonly rules?: TableRules;
      /** Columns the import makes again from the row's checked values instead of taking them as given. */
      readonly remake?: (row: Record<string, unknown>) => Promise<void> | void;
    }
  | { readonly export: false; readonly why: string };

/** A check on one column's decoded value, which it never changes: a zod schema is one (its `safeParse`). */
export interface ColumnRule {
  safeParse(
    value: unknown,
  ):
    | { readonly success: true }
    | { readonly success: false; readonly error: { readonly issues: readonly { readonly message: string }[] } };
}

/**
 * What an archive row may hold beyond its column's kind: the same rules the
 * API applies when the row is written through it, the rows it names
 * (foreign references, checked against the rows imported before it) and the
 * keys no two rows may share. An archive is content from outside: nothing in
 * it is trusted more than a request body.
 */
export interface TableRules {
  /** Checks on one column's decoded value; they never change it. */
  readonly columns?: Readonly<Record<string, ColumnRule>>;
  /** column → the table whose `id` it names (that table's rows come earlier in the archive). */
  readonly refs?: Readonly<Record<string, string>>;
  /** Column sets no two rows share, the primary key first. */
  readonly unique?: readonly (readonly string[])[];
  /** Checks across columns: a message when the row is refused. */
  readonly row?: (row: Readonly<Record<string, unknown>>) => string | null;
}
