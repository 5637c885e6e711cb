import type { Role } from '../wire/vocabulary.js';

/** An account as repositories return it. Dates are Date objects, never strings. */
export interface User {
  id: string;
  /** Always lower case: e-mail addresses compare case-insensitively. */
  email: string;
  displayName: string | null;
  role: Role;
  verified: boolean;
  passwordHash: string;
  /** Bumped to end every session issued before (password reset, cancellation). */
  tokenVersion: number;
  createdAt: Date;
  updatedAt: Date;
}
