import { sha256Hex } from '../../core/shared/crypto.js';

/**
 * What keeps `from` unique in storage: its hex SHA-256. The path itself may
 * be 2,000 characters, past what a MySQL (utf8mb4: 3,072 bytes) or
 * PostgreSQL (about 2,700 bytes) index entry holds; the hash always fits.
 * The repository writes it, and an import makes it again from `from`.
 */
export const redirectKey = (from: string): Promise<string> => sha256Hex(from);
