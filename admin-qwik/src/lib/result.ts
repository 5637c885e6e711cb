/**
 * What an API call comes back as (lib/http.ts never throws). Types only, in a
 * file of their own, so the pure form helpers can name them without pulling
 * in the browser-side client (the unit tests type-check them under Node).
 */
export interface Issue {
  path: string;
  message: string;
}

export type Result<T> =
  | { ok: true; status: number; data: T }
  | { ok: false; status: number | null; code: string; message: string; issues: Issue[] };
