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
  /**
   * The documented status this example is answered with, when it is not the route's success status: one of the
   * redirects (302, 303) of a route marked `redirects` (a sign-in form answered by going back to the page).
   */
  readonly status?: number;
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
  /**
   * A written success answer, for an operation whose recorded one would make a poor example (this document itself):
   * valid against the route's response schema like a recorded one. Most operations leave it out.
   */
  readonly response?: unknown;
}

/**
 * A module's API reference entries (`<module>/routes.docs.ts`), by the names its `routes.ts` exports them under; the
 * example test fails on an operation of the document that has none.
 */
export type ModuleDocs<R> = { readonly [K in keyof R]?: OperationDocs };

/** A tag of the API reference: one per module, the folder of its routes' handlers (`functions/<module>/`). */
export interface TagDocs {
  readonly name: string;
  /** The heading the reference shows for it (OpenAPI's `x-displayName`). */
  readonly 'x-displayName': string;
  readonly description: string;
}

/**
 * What the OpenAPI document is built with beside the route table (`buildOpenApi(routes, docs)`): each operation's
 * docs and recorded success answer, by route name (`RouteDef.name`), and the module tags. Built in
 * `shared/routes/docs/index.ts` from the lists' docs; only the document's builders import it.
 */
export interface ApiDocs {
  readonly operations: Readonly<Record<string, OperationDocs>>;
  /**
   * The body a route answered its request example with, recorded from the local stack by the example test
   * (`RECORD_OPENAPI_EXAMPLES=1`), its ids swapped back to `example-ids.ts`'s: the success response's example.
   */
  readonly responseExamples: Readonly<Record<string, unknown>>;
  readonly tags: readonly TagDocs[];
}
