/**
 * Stands in for `@aws-sdk/lib-dynamodb` in every function bundle (an esbuild alias, see `bundling.ts`). The package
 * does not declare its modules free of side effects, so a bundle that imports anything from its index also keeps
 * the index's paginators, each built at import by a call that names the command it pages (Query, Scan): 1.5–3 KB
 * of every function, and a Scan command in functions that never scan. Here each class comes from its own module,
 * so a bundle carries the document client and the commands it uses, nothing else. (JavaScript: the package's ES module
 * files have no type declarations of their own; the code type-checks against the package's index, as before.) The paths
 * are the installed package's, which has no `exports` map; a name missing here fails the build.
 */
export { DynamoDBDocumentClient } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/DynamoDBDocumentClient.js';
export { BatchGetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/BatchGetCommand.js';
export { BatchWriteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/BatchWriteCommand.js';
export { DeleteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/DeleteCommand.js';
export { GetCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/GetCommand.js';
export { PutCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/PutCommand.js';
export { QueryCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/QueryCommand.js';
export { ScanCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/ScanCommand.js';
export { TransactWriteCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/TransactWriteCommand.js';
export { UpdateCommand } from '../../node_modules/@aws-sdk/lib-dynamodb/dist-es/commands/UpdateCommand.js';
