import type { paths } from './api-schema';
import { api, type Result } from './http';
import { buildUrl } from './url';

/**
 * The admin's typed client: paths, parameters, bodies and answers are
 * checked against api-schema.d.ts, which is generated from the OpenAPI
 * description (itself generated from the routes' zod schemas), so a screen
 * that calls a route wrongly does not compile. `npm run api:types`
 * regenerates it; a test fails when it is stale. No runtime beyond http.ts.
 */

type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
/** The methods a path really serves (the generator writes the others as `put?: never`). */
type MethodsOf<T> = { [K in Method & keyof T]: [NonNullable<T[K]>] extends [never] ? never : K }[Method & keyof T];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : null;
type SuccessOf<O> = O extends { responses: infer R }
  ? { [K in keyof R]: K extends 200 | 201 | 202 | 204 ? JsonOf<R[K]> : never }[keyof R]
  : never;
type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;
type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
type PathParamsOf<O> = O extends { parameters: { path: infer P } } ? P : never;

export type ApiAnswer<P extends keyof paths, M extends MethodsOf<paths[P]>> = SuccessOf<Operation<P, M>>;

export interface CallOptions<O> {
  path?: PathParamsOf<O>;
  query?: QueryOf<O>;
  body?: BodyOf<O>;
  signal?: AbortSignal;
  /** Send the session token (default true). */
  auth?: boolean;
}

export function call<P extends keyof paths & string, M extends MethodsOf<paths[P]>>(
  method: M,
  path: P,
  options: CallOptions<Operation<P, M>> = {},
): Promise<Result<SuccessOf<Operation<P, M>>>> {
  const url = buildUrl(
    path,
    options.path as Record<string, unknown> | undefined,
    options.query as Record<string, unknown> | undefined,
  );
  return api<SuccessOf<Operation<P, M>>>(method.toUpperCase(), url, {
    ...(options.body !== undefined && { body: options.body }),
    ...(options.signal && { signal: options.signal }),
    ...(options.auth !== undefined && { auth: options.auth }),
  });
}
