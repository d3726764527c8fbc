/**
 * The hosted-fields frame's script as served (`GET /api/v1/hosted-fields/frame.js`): the bundle of
 * `shared/customers/browser/hosted-fields-frame.ts` (`shared/platform/http/browser-scripts.ts`), read once per container.
 */
import { HOSTED_FIELDS_FRAME_SCRIPT, readBrowserScript } from '../platform/http/browser-scripts.ts';

export const frameScript = readBrowserScript(HOSTED_FIELDS_FRAME_SCRIPT);
