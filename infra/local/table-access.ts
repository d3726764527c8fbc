/**
 * The table access of each local function, held as deployed: a function runs with the rights its definition gives
 * it on the table (`table`: `none`, `read` or `readWrite`, and the updates its authentication makes,
 * `authenticationWrites`), and DynamoDB refuses anything else with `AccessDeniedException`, as IAM does. All local
 * functions share one process and one document client, so the client checks each call against the function whose
 * invocation made it (`asFunction`, run by `invokeHandler` for every invocation). Calls outside any invocation (the
 * stack's own, a test's) are not checked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { authenticationWrites, type AuthKind, type TableAccess } from '../../shared/platform/http/route-def.ts';

/** What a function may do to the table: its access, and the partition key prefixes its authentication updates. */
export interface TableRights {
  readonly table: TableAccess;
  readonly updates: readonly string[];
}

/** The rights of a route or consumer definition (a consumer authenticates nothing). */
export const tableRightsOf = (def: { table: TableAccess; auth?: AuthKind }): TableRights => ({
  table: def.table,
  updates: (def.auth && authenticationWrites[def.auth]) || [],
});

/** The DynamoDB operations IAM's read access (`grantReadData`) allows. */
const readOperations = new Set(['GetItem', 'BatchGetItem', 'Query', 'Scan', 'TransactGetItems', 'DescribeTable']);

const invocations = new AsyncLocalStorage<{ name: string; rights: TableRights }>();
const rightsByFunction = new Map<string, TableRights>();

/** Runs `call` as an invocation of the function `functionName` (unchecked when its rights were never given). */
export function asFunction<T>(functionName: string, call: () => T): T {
  const rights = rightsByFunction.get(functionName);
  return rights ? invocations.run({ name: functionName, rights }, call) : call();
}

/** The partition key of a call's `Key`, marshalled or not. */
const partitionKeyOf = (input: { Key?: Record<string, unknown> }): string | undefined => {
  const pk = input.Key?.pk as { S?: string } | string | undefined;
  return typeof pk === 'string' ? pk : pk?.S;
};

/** Whether `rights` allow the operation `operation` (`UpdateItem`, …) with `input`. */
export function allowed(rights: TableRights, operation: string, input: { Key?: Record<string, unknown> }): boolean {
  if (rights.table === 'readWrite') return true;
  if (rights.table === 'none') return false;
  if (readOperations.has(operation)) return true;
  const pk = partitionKeyOf(input);
  return operation === 'UpdateItem' && pk !== undefined && rights.updates.some((prefix) => pk.startsWith(prefix));
}

/**
 * Holds the functions named in `rights` (by function name, `mor-local-<name>`) to them on `client`: a call they may
 * not make is refused before it is sent.
 */
export function holdTableAccess(client: DynamoDBDocumentClient, rights: ReadonlyMap<string, TableRights>): void {
  for (const [name, r] of rights) rightsByFunction.set(name, r);
  if (client.middlewareStack.identify().some((m) => m.startsWith('localTableAccess'))) return;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      const run = invocations.getStore();
      const operation = String(context.commandName ?? '').replace(/Command$/, '');
      if (run && !allowed(run.rights, operation, args.input as { Key?: Record<string, unknown> })) {
        throw Object.assign(new Error(`User: ${run.name} is not authorized to perform: dynamodb:${operation} on the table (its access: ${run.rights.table})`), {
          name: 'AccessDeniedException',
          $fault: 'client',
          $metadata: { httpStatusCode: 400 },
        });
      }
      return next(args);
    },
    { step: 'initialize', name: 'localTableAccess' },
  );
}
