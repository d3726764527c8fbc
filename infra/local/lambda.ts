/**
 * Running a function's handler in this process the way the Lambda runtime would: its entry module imported
 * once (a warm container), called as `handler(event, context)` with a realistic context object and the
 * function's timeout.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Context } from 'aws-lambda';
import { defaultConsumerTimeoutSeconds } from '../consumers.ts';
import { localAccountId, localFunctionPrefix, repoRoot } from './settings.ts';
import { asFunction } from './function-rights.ts';

/** Timeout of a stream or queue consumer that names none. */
export const consumerTimeoutMs = defaultConsumerTimeoutSeconds * 1000;

export type LambdaHandler = (event: unknown, context: Context) => Promise<unknown> | unknown;

/** Loads the `handler` export of an entry file (relative to the repository root, or absolute). */
export type HandlerLoader = (entry: string) => Promise<LambdaHandler>;

const loaded = new Map<string, Promise<LambdaHandler>>();

/** Imports an entry file once per process and returns its `handler` (like a warm Lambda container). */
export const loadHandler: HandlerLoader = (entry) => {
  const file = path.resolve(repoRoot, entry);
  let pending = loaded.get(file);
  if (!pending) {
    pending = import(pathToFileURL(file).href).then((mod: { handler?: unknown }) => {
      if (typeof mod.handler !== 'function') throw new Error(`${entry} does not export a function named "handler"`);
      return mod.handler as LambdaHandler;
    });
    // A failed import (a syntax error being fixed) is retried on the next invocation, not cached.
    pending.catch(() => loaded.delete(file));
    loaded.set(file, pending);
  }
  return pending;
};

export interface ContextOptions {
  /** Definition name (route or consumer); the function is called `mor-local-<name>`. */
  readonly name: string;
  readonly timeoutMs: number;
  readonly region: string;
  readonly memoryMb?: number;
  readonly requestId?: string;
}

const pad = (n: number): string => String(n).padStart(2, '0');

/** The ARN a local function would have: `arn:aws:lambda:<region>:000000000000:function:mor-local-<name>`. */
export const localFunctionArn = (name: string, region: string): string => `arn:aws:lambda:${region}:${localAccountId}:function:${localFunctionPrefix}-${name}`;

/** A Lambda context object shaped like the Node.js runtime's. */
export function lambdaContext(opts: ContextOptions): Context {
  const functionName = `${localFunctionPrefix}-${opts.name}`;
  const deadline = Date.now() + opts.timeoutMs;
  const now = new Date();
  const day = `${now.getUTCFullYear()}/${pad(now.getUTCMonth() + 1)}/${pad(now.getUTCDate())}`;
  const gone = () => {
    throw new Error('context.done/fail/succeed are not supported by async handlers');
  };
  return {
    callbackWaitsForEmptyEventLoop: true,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: localFunctionArn(opts.name, opts.region),
    memoryLimitInMB: String(opts.memoryMb ?? 512),
    awsRequestId: opts.requestId ?? randomUUID(),
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: `${day}/[$LATEST]${randomBytes(16).toString('hex')}`,
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: gone,
    fail: gone,
    succeed: gone,
  };
}

export class LambdaTimeoutError extends Error {
  constructor(functionName: string, timeoutMs: number) {
    super(`${functionName} timed out after ${timeoutMs / 1000} seconds`);
    this.name = 'LambdaTimeoutError';
  }
}

/**
 * Calls `handler(event, context)` and settles with its result, its error, or a `LambdaTimeoutError` once
 * the context's time is up (the handler's promise is then abandoned, as Lambda abandons the invocation).
 */
export async function invokeHandler(handler: LambdaHandler, event: unknown, context: Context, timeoutMs: number): Promise<unknown> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new LambdaTimeoutError(context.functionName, timeoutMs)), timeoutMs);
    timer.unref();
  });
  try {
    // As the function: held to its rights on the table and in storage (./function-rights.ts).
    return await Promise.race([Promise.resolve().then(() => asFunction(context.functionName, () => handler(event, context))), timeout]);
  } finally {
    clearTimeout(timer);
  }
}
