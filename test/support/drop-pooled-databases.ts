import { afterAll } from 'vitest';
import { dropPooledDatabases } from './migrated-databases.js';

// A setup file of the node project: the databases its harnesses kept for reuse go with the file.
afterAll(dropPooledDatabases);
