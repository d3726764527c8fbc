import type { Reply } from '../../shared/platform/http/types.ts';
import { route } from '../../shared/access/auth-none.ts';
import * as checkoutRoutes from '../../shared/checkout/routes.ts';
import { checkoutImage, IMAGE_CACHE_CONTROL } from '../../shared/checkout/checkout-images.service.ts';

export const handler = route(checkoutRoutes.getCheckoutImage, async ({ params }): Promise<Reply> => {
  const image = await checkoutImage(params.merchantId, params.imageId);
  if ('redirect' in image) return { status: 302, headers: { location: image.redirect, 'cache-control': 'private, max-age=60' } };
  return { status: 200, headers: { 'content-type': image.contentType, 'cache-control': IMAGE_CACHE_CONTROL }, body: image.bytes };
});
