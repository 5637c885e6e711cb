/**
 * Whether an `Accept` header prefers `text/html` to JSON (RFC 9110 §12.5.1):
 * the quality it gives HTML (named, or by `text/*`) must be above the one
 * JSON gets (named, by `application/*` or by `*∕*`). A browser's navigation
 * (`text/html,…,*∕*;q=0.8`) does; `fetch()`'s `*∕*`, a missing header and
 * `application/json` do not, so API clients keep their JSON.
 */
export function prefersHtml(accept: string | undefined): boolean {
  if (!accept) return false;
  const quality = new Map<string, number>();
  // Bounded: a header of hundreds of ranges is no browser's.
  for (const range of accept.split(',').slice(0, 64)) {
    const [type = '', ...params] = range.split(';').map((p) => p.trim().toLowerCase());
    const q = params.find((p) => p.startsWith('q='));
    const value = q === undefined ? 1 : Number(q.slice(2));
    if (type !== '' && Number.isFinite(value)) quality.set(type, Math.max(quality.get(type) ?? 0, value));
  }
  const of = (...types: string[]) => {
    for (const t of types) {
      const q = quality.get(t);
      if (q !== undefined) return q;
    }
    return 0;
  };
  return of('text/html', 'text/*', '*/*') > of('application/json', 'application/*', '*/*');
}
