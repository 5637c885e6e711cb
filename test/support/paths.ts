import path from 'node:path';

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
