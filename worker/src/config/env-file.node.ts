import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * Node only: reads `.env` from the working directory into process.env when
 * the file exists, with Node's own parser (process.loadEnvFile, Node 20.12+;
 * `KEY=value` lines, `#` comments, quotes). A variable already in the
 * environment keeps its value: the file only fills in what is unset, so a
 * real environment (systemd, Docker, the shell) always wins. Returns the
 * file read, or null.
 */
export function loadDotEnv(dir = process.cwd()): string | null {
  const file = path.join(dir, '.env');
  if (!existsSync(file)) return null;
  process.loadEnvFile(file);
  return file;
}
