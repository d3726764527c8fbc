/**
 * What the API reference says about an operation beyond its route definition: a description, a request example
 * that gets the route's documented status, and the refusals particular to it. Kept beside the face lists
 * (`shared/routes/docs/<face>.ts`), read only when the OpenAPI document is built (`infra/openapi-asset.ts`), so no
 * function's bundle carries it.
 */
import type { RouteDef } from '../types.ts';

/** A refusal particular to one operation (its face's error body carries `code`). */
export interface DocumentedError {
  readonly status: number;
  readonly code: string;
  /** When it is answered, in a sentence a caller can act on. */
  readonly when: string;
}

/** The request a new user would send. Ids are the ones of `example-ids.ts`: the example test swaps each for a real one. */
export interface RequestExample {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string>>;
  /** Headers beyond authentication and content type (e.g. `Idempotency-Key`). */
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: unknown;
}

export interface OperationDocs {
  /** Markdown: what the operation does, who may call it and what to know; more than the summary says. */
  readonly description: string;
  /** Answered with the route's success status against the example test's fixture. */
  readonly example: RequestExample;
  /**
   * The refusals particular to this operation. Those its definition implies are added by the document builder:
   * 401 (its auth), 403 (scope check, roles), 400 (validation of body, query or path), 415 (a body of another
   * media type) and 404 (its `unknownId`).
   */
  readonly errors?: readonly DocumentedError[];
}

/** The docs of every route of one face list (`shared/routes/<face>.ts`): the type checker names a route left out. */
export type FaceDocs<R extends Record<string, RouteDef>> = { readonly [K in keyof R]: OperationDocs };
