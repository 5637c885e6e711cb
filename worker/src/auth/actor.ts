import type { ApiKey } from './api-key.js';
import type { User } from './user.js';

/** Who is calling: nobody, a signed-in account, or an integration's API key. */
export type Actor = { type: 'anonymous' } | { type: 'user'; user: User } | { type: 'apiKey'; key: ApiKey };

export const ANONYMOUS: Actor = { type: 'anonymous' };
