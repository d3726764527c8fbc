import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';

/** One element of a `TransactWriteItems` call, as repositories hand them to the services that combine them. */
export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];
