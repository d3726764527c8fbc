/**
 * Stands in for `@aws-sdk/credential-provider-node` in every function bundle (an esbuild alias, see
 * `bundling.ts`): a Lambda function's credentials are always in its environment, so the SDK's default chain
 * (SSO, STS web identity, ini files, credential processes, instance metadata) is never needed there and is not
 * bundled. The SDK clients' default credential provider becomes the environment one.
 */
export { fromEnv as defaultProvider } from '@aws-sdk/credential-provider-env';
