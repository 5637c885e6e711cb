import type { paths } from './api-schema';

/**
 * Types of the API looked up by path and method in the generated
 * api-schema.d.ts (`paths['/v1/…']['get']`), never by component name. Types
 * only, in a file of their own, so the pure helpers can name them without
 * pulling in the browser-side client (lib/typed-api.ts).
 */
export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';
export type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M & keyof paths[P]]>;
/** The methods a path really serves (the generator writes the others as `put?: never`). */
export type MethodsOf<P extends keyof paths> = {
  [K in Method & keyof paths[P]]: [NonNullable<paths[P][K]>] extends [never] ? never : K;
}[Method & keyof paths[P]];

type JsonOf<R> = R extends { content: { 'application/json': infer B } } ? B : null;
export type SuccessOf<O> = O extends { responses: infer R }
  ? { [K in keyof R]: K extends 200 | 201 | 202 | 204 ? JsonOf<R[K]> : never }[keyof R]
  : never;
export type BodyOf<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? B
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? B
    : never;
export type QueryOf<O> = O extends { parameters: { query?: infer Q } } ? Q : never;
export type PathParamsOf<O> = O extends { parameters: { path: infer P } } ? P : never;

/** What a route answers on success: `ApiAnswer<'/v1/articles/{id}', 'get'>` is `{ article: … }`. */
export type ApiAnswer<P extends keyof paths, M extends MethodsOf<P>> = SuccessOf<Operation<P, M>>;
/** The JSON body a route takes. */
export type ApiBody<P extends keyof paths, M extends MethodsOf<P>> = BodyOf<Operation<P, M>>;
/** The query a route takes. */
export type ApiQuery<P extends keyof paths, M extends MethodsOf<P>> = NonNullable<QueryOf<Operation<P, M>>>;
