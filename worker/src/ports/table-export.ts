/** Each table's place in the archive, by the schema's property name (app/services.ts `TABLE_EXPORTS`). */
export type TableExports = Readonly<Record<string, TableExport>>;

export type TableExport =
  | {
      readonly export: true;
      /** Columns left out of the archive (secrets, one-time codes); `fill` gives the value stored on import instead. */
      readonly omit?: readonly string[];
      readonly fill?: Readonly<Record<string, unknown>>;
    }
  | { readonly export: false; readonly why: string };
