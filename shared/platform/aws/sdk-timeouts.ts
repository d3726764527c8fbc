/**
 * The timeouts of the functions' SDK clients (DynamoDB, SQS) and signed calls (S3, SES, Secrets Manager). Left to
 * the SDK's defaults, a call waits for a connection without end and on a silent socket for five minutes, longer than
 * any function runs: one hung call would hold its function until Lambda stops it (a route's 10 s), nothing answered
 * or given back. A DynamoDB or SQS call gets 3 s to connect and is dropped when its socket stays silent for 5 s; the
 * SDK retries either as a transient `TimeoutError` (a retried transaction keeps its `ClientRequestToken`, so it lands
 * once). A signed call gets 5 s in all, retries included. A route that still meets a `TimeoutError` answers 503
 * `request.busy` (../db/busy.ts).
 */

/** The `requestHandler` options of an SDK client. */
export const sdkRequestHandler = { connectionTimeout: 3_000, socketTimeout: 5_000 };

/** The whole time a signed call may take, its retries included. */
export const SIGNED_CALL_TIMEOUT_MS = 5_000;
