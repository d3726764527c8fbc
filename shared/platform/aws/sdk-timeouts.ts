/**
 * The timeouts of the functions' SDK clients (DynamoDB, SQS) and signed calls (S3, SES, Secrets Manager). Left to
 * the SDK's defaults, a call waits for a connection without end and on a silent socket for five minutes, longer than
 * any function runs: one hung call would hold its function until Lambda stops it (a route's 10 s), nothing answered
 * or given back. A DynamoDB or SQS call gets 2.5 s to connect, and its socket 2.5 s of silence at any point after (no
 * answer, or one that stops halfway), and it is sent at most three times (the SDK retries a
 * timeout as a transient error; a retried transaction keeps its `ClientRequestToken`, so it lands once): with the SDK's
 * backoff (under 0.6 s), a call that never gets an answer fails within about 8.1 s, as a `TimeoutError`, which a route
 * answers 503 `request.busy` (../db/busy.ts) inside its 10 s. A signed call gets 5 s in all, its retries included.
 *
 * On the local stack every budget is eight times as long: its emulators share a small machine with everything else
 * (DynamoDB Local, warming up under a test run's load, has taken seconds to answer), and no call there hangs for want
 * of a network.
 */
import { config } from '../config.ts';

/** The budget of one try of an SDK call (eight times as long on the local stack). */
const TRY_MS = config.localStack ? 20_000 : 2_500;

/** The options of an SDK client: its `requestHandler`'s timeouts and how many times a call is sent. */
export const sdkClientOptions = {
  maxAttempts: 3,
  requestHandler: { connectionTimeout: TRY_MS, socketTimeout: TRY_MS },
};

/** The whole time a signed call may take, its retries included. */
export const SIGNED_CALL_TIMEOUT_MS = 2 * TRY_MS;
