/**
 * The calls of the five tools whose services are being built beside this module — product images (a presigned
 * upload, then its confirmation) and the checkout customization (read it, change its colours and name, set its
 * logo). The tools are listed with their schemas, scopes and annotations (`tools.ts`), and their scope is checked
 * like any other's; each call lands here and answers, as a tool error, that the tool is not available yet. When the
 * services are merged in, each function below calls its service instead.
 */
import { DomainError } from '../domain/errors.ts';
import type { ToolCall } from './tool.ts';
import type {
  confirmProductImageArguments,
  createProductImageUploadArguments,
  noArguments,
  setCheckoutLogoArguments,
  updateCheckoutCustomizationArguments,
} from './tools.schemas.ts';

const notYet = (tool: string) => async (): Promise<never> => {
  throw new DomainError(501, 'tool.not_available', `${tool} is not available yet on this deployment.`);
};

export const createProductImageUpload: ToolCall<typeof createProductImageUploadArguments> = notYet('create_product_image_upload');
export const confirmProductImage: ToolCall<typeof confirmProductImageArguments> = notYet('confirm_product_image');
export const getCheckoutCustomization: ToolCall<typeof noArguments> = notYet('get_checkout_customization');
export const updateCheckoutCustomization: ToolCall<typeof updateCheckoutCustomizationArguments> = notYet('update_checkout_customization');
export const setCheckoutLogo: ToolCall<typeof setCheckoutLogoArguments> = notYet('set_checkout_logo');
