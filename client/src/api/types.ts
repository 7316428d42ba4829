/**
 * Type plumbing over the generated `schema.d.ts` (openapi-typescript): which paths take which
 * method, what a call must pass (path/query/header parameters, body) and what it returns.
 * Nothing here exists at run time.
 */
import type { components, paths } from './schema'

export type Schemas = components['schemas']
export type HttpMethod = 'get' | 'post' | 'put' | 'delete' | 'patch'

type Defined<T> = Exclude<T, undefined>
type IsNever<T> = [T] extends [never] ? true : false

/** The paths that have an operation for method M. */
export type PathsWith<M extends HttpMethod> = {
  [P in keyof paths]: IsNever<Defined<paths[P][M]>> extends true ? never : P
}[keyof paths]

/** The operation of path P and method M. */
export type Op<P extends keyof paths, M extends HttpMethod> = Defined<paths[P][M]>

type ParamsOf<O> = O extends { parameters: infer X } ? X : Record<string, never>

/** One parameter group (path, query or header): absent when `never`, optional when optional. */
type Group<X, K extends string> = K extends keyof X
  ? IsNever<Defined<X[K]>> extends true
    ? unknown
    : object extends Pick<X, K>
      ? { [Q in K]?: Defined<X[K]> }
      : { [Q in K]: X[K] }
  : unknown

type ParamsInit<O> = Group<ParamsOf<O>, 'path'> & Group<ParamsOf<O>, 'query'> & Group<ParamsOf<O>, 'header'>

type BodyInit<O> = O extends { requestBody: { content: { 'application/json': infer B } } }
  ? { body: B }
  : O extends { requestBody?: { content: { 'application/json': infer B } } }
    ? IsNever<B> extends true ? unknown : { body?: B }
    : unknown

type RequiredKeys<T> = { [K in keyof T]-?: object extends Pick<T, K> ? never : K }[keyof T]

/** What a call passes: `params` ({path, query, header} as the operation declares) and `body`. */
export type CallInit<O> = (RequiredKeys<ParamsInit<O>> extends never
  ? { params?: ParamsInit<O> }
  : { params: ParamsInit<O> }) &
  BodyInit<O> & {
    /** Extra headers (If-None-Match, Idempotency-Key …) not declared by the operation. */
    headers?: Record<string, string>
    /** Do not re-login and retry on an expired token (the login calls themselves). */
    noAuth?: boolean
  }

/** The rest parameter of a call: optional when nothing is required. */
export type InitArg<O> = RequiredKeys<CallInit<O>> extends never ? [init?: CallInit<O>] : [init: CallInit<O>]

type ResponsesOf<O> = O extends { responses: infer R } ? R : never
type JsonOf<R> = R extends { content: { 'application/json': infer J } } ? J : undefined
type SuccessCode = 200 | 201 | 202

/** The JSON body of the operation's success response. */
export type SuccessData<O> = JsonOf<ResponsesOf<O>[Extract<keyof ResponsesOf<O>, SuccessCode>]>

/** Body shape of every error (any status). */
export type ErrorBody = Schemas['ErrorOut']

/** The JSON body a call of path P with method M sends. */
export type BodyOf<P extends keyof paths, M extends HttpMethod> = Op<P, M> extends {
  requestBody?: { content: { 'application/json': infer B } }
} ? B : never
