/**
 * The hosted-fields SDK as served (`GET /api/v1/hosted-fields/sdk.js`): the bundle of
 * `shared/customers/browser/hosted-fields-sdk.ts` (`shared/platform/http/browser-scripts.ts`), read once per container.
 */
import { HOSTED_FIELDS_SDK_SCRIPT, readBrowserScript } from '../platform/http/browser-scripts.ts';

export const sdkScript = readBrowserScript(HOSTED_FIELDS_SDK_SCRIPT);
