/**
 * The hosted checkout pages' script as served (`GET /checkout/assets/checkout.js`): the bundle of
 * `shared/checkout/browser/checkout-page.ts` (`shared/platform/http/browser-scripts.ts`), read once per container.
 */
import { CHECKOUT_PAGE_SCRIPT, readBrowserScript } from '../platform/http/browser-scripts.ts';

export const checkoutScript = readBrowserScript(CHECKOUT_PAGE_SCRIPT);
