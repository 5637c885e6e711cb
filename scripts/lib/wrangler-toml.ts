/**
 * What the deploy script reads from wrangler.toml: the `[[d1_databases]]`
 * entry's name, and whether it pins a `database_id` (then the database
 * exists already and nothing is provisioned). A regular expression, not a
 * TOML parser: the file is ours and the entry's shape is fixed.
 */
export function d1FromToml(toml: string): { name: string; pinned: boolean } {
  const block = /\[\[d1_databases\]\]([\s\S]*?)(?=\n\[|$)/.exec(toml)?.[1] ?? '';
  const name = /^\s*database_name\s*=\s*"([^"]+)"/m.exec(block)?.[1];
  if (!name) throw new Error('wrangler.toml: [[d1_databases]] needs a database_name');
  return { name, pinned: /^\s*database_id\s*=/m.test(block) };
}
