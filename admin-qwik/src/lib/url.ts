/** `/v1/articles/{id}` + `{ id }` → `/v1/articles/<id>`; query values left undefined are omitted. */
export function buildUrl(
  template: string,
  pathParams?: Record<string, unknown>,
  query?: Record<string, unknown>,
): string {
  const path = template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = pathParams?.[name];
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${template}`);
    return encodeURIComponent(String(value));
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query ?? {})) {
    if (value !== undefined && value !== null && value !== '') search.set(key, String(value));
  }
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/** `path` without its trailing slashes, in one pass (`/\/+$/` retries from every slash: quadratic on a long run). */
export function withoutTrailingSlashes(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47) end--;
  return path.slice(0, end);
}

/** The query parameter of the address the browser shows (static pages know no query at build time). */
export function queryParam(name: string): string | null {
  return new URL(location.href).searchParams.get(name);
}
