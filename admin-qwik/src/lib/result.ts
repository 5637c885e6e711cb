/**
 * What an API call comes back as (lib/typed-api.ts never throws). Types and
 * one guard only, in a file of their own, so the pure form helpers can name
 * them without pulling in the browser-side client (the unit tests
 * type-check them under Node).
 */
export interface Issue {
  path: string;
  message: string;
}

export type Result<T> =
  | { ok: true; status: number; data: T; etag?: string | null }
  | {
      ok: false;
      status: number | null;
      code: string;
      message: string;
      issues: Issue[];
      /** The answer's body as sent (a 412 carries the current version there). */
      body?: unknown;
    };

/** A JSON object (not null, not an array): what an answer's body is read as. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
