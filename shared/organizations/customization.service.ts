/**
 * Checkout customization of a merchant: the display name buyers see, the brand colour (the pay button, with white
 * text, and links), the accent colour (decoration: the panels' top edge and the focus ring) and a logo. Read and
 * changed from the dashboard back end (and by other modules through these functions); applied by the checkout
 * reads and the hosted checkout page.
 *
 * Logos are checked by their bytes (the file signature must be PNG, JPEG or WebP and match the declared type; SVG
 * is refused), stored in the platform's storage bucket under a new image id each time (so they can be cached for
 * good) and served from the platform's origin (`GET /api/v1/checkout/merchants/{merchantId}/images/{imageId}`).
 */
import { randomBytes } from 'node:crypto';
import { type CheckoutCustomization, customizationFields } from './customization.entity.ts';
import { getCustomization, replaceLogo, updateCustomization, type CustomizationChanges } from './customization.repository.ts';
import { DISPLAY_NAME_MAX, formatRatio, HEX_COLOR_PATTERN, contrastRatio, MIN_CONTRAST_AGAINST_WHITE } from './customization.rules.ts';
import { BadRequestError, UnprocessableError } from '../domain/errors.ts';
import type { Merchant } from '../domain/merchants.ts';
import { imageContentTypes, imagePath, imageTypeOf, isImageContentType, LOGO_MAX_BYTES } from '../domain/images.ts';
import { config } from '../platform/config.ts';
import { deleteImage, putImage } from '../platform/storage/images.ts';

/** What a caller may change: each field a value, or null to clear it; an absent field stays as it is. */
export interface CheckoutCustomizationInput {
  displayName?: string | null | undefined;
  brandColor?: string | null | undefined;
  accentColor?: string | null | undefined;
}

/** A logo as the API takes it: its declared type and its bytes in base64. */
export interface CheckoutLogoInput {
  contentType: string;
  data: string;
}

/** The customization as the dashboard (and other modules) see it; `logo.url` is on the platform's origin. */
export function customizationView(c: CheckoutCustomization, origin = config.publicOrigin) {
  return {
    merchantId: c.merchantId,
    displayName: c.displayName,
    brandColor: c.brandColor,
    accentColor: c.accentColor,
    logo: c.logo ? { url: `${origin}${imagePath(c.merchantId, c.logo.imageId)}`, contentType: c.logo.contentType, size: c.logo.size } : null,
    updatedAt: c.updatedAt,
  };
}

export type CheckoutCustomizationView = ReturnType<typeof customizationView>;

/** The customization as a checkout read carries it (what the hosted checkout page applies). */
export const checkoutBranding = (c: CheckoutCustomization, origin: string) => ({
  displayName: c.displayName,
  brandColor: c.brandColor,
  accentColor: c.accentColor,
  logoUrl: c.logo ? `${origin}${imagePath(c.merchantId, c.logo.imageId)}` : null,
});

/** The merchant's stored customization, for the checkout reads (one GetItem). */
export const customizationOf = (merchantId: string): Promise<CheckoutCustomization> => getCustomization(merchantId);

/**
 * The name buyers know the merchant by — the checkout pages' `merchantName`, and the name receipts and invoices give
 * beside the platform as seller of record: its checkout display name when it set one, else its trading name
 * (onboarding's `dba`), else its name.
 */
export const checkoutDisplayName = (merchant: Merchant, customization: Pick<CheckoutCustomization, 'displayName'>): string =>
  customization.displayName ?? (merchant.business?.dba?.trim() || merchant.name);

/** `checkoutDisplayName` of the merchant as its customization is now (one GetItem). */
export const currentDisplayName = async (merchant: Merchant): Promise<string> => checkoutDisplayName(merchant, await getCustomization(merchant.id));

/** The merchant's checkout customization (all null when none was set). One GetItem. */
export async function getCheckoutCustomization(merchantId: string): Promise<CheckoutCustomizationView> {
  return customizationView(await getCustomization(merchantId));
}

/** A `#RRGGBB` colour in upper case; 400 `checkout_customization.invalid_color` otherwise. */
function colorOf(field: 'brandColor' | 'accentColor', value: string): string {
  if (!HEX_COLOR_PATTERN.test(value)) {
    throw new BadRequestError('checkout_customization.invalid_color', `${field}: must be a colour written #RRGGBB (e.g. #1A56DB).`, { field });
  }
  return value.toUpperCase();
}

/**
 * Changes the given fields (null clears one) in one conditional UpdateItem and answers the customization after it.
 * Refusals, before anything is written: 400 `checkout_customization.invalid_color` (not `#RRGGBB`),
 * `checkout_customization.invalid_display_name` (empty or over 100 characters after trimming),
 * `checkout_customization.no_changes` (no field given); 422 `checkout_customization.insufficient_contrast` for a
 * brand colour under 4.5:1 against white (the pay button's text), naming the ratio.
 */
export async function updateCheckoutCustomization(merchantId: string, input: CheckoutCustomizationInput, now = new Date()): Promise<CheckoutCustomizationView> {
  const changes: CustomizationChanges = {};
  if (input.displayName !== undefined) {
    const name = input.displayName === null ? null : input.displayName.trim();
    if (name !== null && (name.length === 0 || name.length > DISPLAY_NAME_MAX)) {
      throw new BadRequestError('checkout_customization.invalid_display_name', `displayName: must be 1 to ${DISPLAY_NAME_MAX} characters (null clears it).`, {
        field: 'displayName',
      });
    }
    changes.displayName = name;
  }
  for (const field of ['brandColor', 'accentColor'] as const) {
    const value = input[field];
    if (value !== undefined) changes[field] = value === null ? null : colorOf(field, value);
  }
  if (!customizationFields.some((f) => changes[f] !== undefined)) {
    throw new BadRequestError('checkout_customization.no_changes', 'Give at least one of displayName, brandColor, accentColor.');
  }
  if (changes.brandColor) {
    const ratio = contrastRatio(changes.brandColor, '#FFFFFF');
    if (ratio < MIN_CONTRAST_AGAINST_WHITE) {
      throw new UnprocessableError(
        'checkout_customization.insufficient_contrast',
        `brandColor ${changes.brandColor} has a contrast ratio of ${formatRatio(ratio)} against white; the pay button's white text needs at least ${MIN_CONTRAST_AGAINST_WHITE}:1 (WCAG AA). Choose a darker colour.`,
        { field: 'brandColor', ratio: Math.floor(ratio * 100) / 100, minimum: MIN_CONTRAST_AGAINST_WHITE },
      );
    }
  }
  return customizationView(await updateCustomization(merchantId, changes, now.toISOString()));
}

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The decoded size of a valid base64 text, without decoding it. */
const decodedLength = (b64: string) => (b64.length / 4) * 3 - (b64.endsWith('==') ? 2 : b64.endsWith('=') ? 1 : 0);

/**
 * Checks a logo and makes it the merchant's: stored under a new image id, then the customization points at it (one
 * UpdateItem), then the previous logo's file is removed. Refusals, before anything is stored: 422
 * `checkout_customization.unsupported_logo_type` (a type other than PNG, JPEG or WebP, SVG included), 400
 * `checkout_customization.invalid_logo_data` (not base64, or empty), 422 `checkout_customization.logo_too_large`
 * (over 512 KiB decoded), 422 `checkout_customization.logo_not_an_image` (the bytes are not a PNG, JPEG or WebP
 * file, or not of the declared type).
 */
export async function setCheckoutLogo(merchantId: string, logo: CheckoutLogoInput, now = new Date()): Promise<CheckoutCustomizationView> {
  const { contentType, data } = logo;
  if (!isImageContentType(contentType)) {
    throw new UnprocessableError(
      'checkout_customization.unsupported_logo_type',
      `This contentType is not accepted: a logo is ${imageContentTypes.join(', ')} (no SVG).`,
      { field: 'contentType', accepted: [...imageContentTypes] },
    );
  }
  if (data.length === 0 || data.length % 4 !== 0 || !BASE64.test(data)) {
    throw new BadRequestError('checkout_customization.invalid_logo_data', 'data: must be the image file in base64 (standard alphabet, padded).', {
      field: 'data',
    });
  }
  const size = decodedLength(data);
  if (size > LOGO_MAX_BYTES) {
    throw new UnprocessableError(
      'checkout_customization.logo_too_large',
      `The logo is ${size} bytes; at most ${LOGO_MAX_BYTES} bytes (512 KiB) are accepted.`,
      {
        field: 'data',
        size,
        maxBytes: LOGO_MAX_BYTES,
      },
    );
  }
  const bytes = new Uint8Array(Buffer.from(data, 'base64'));
  const actual = imageTypeOf(bytes);
  if (actual !== contentType) {
    throw new UnprocessableError(
      'checkout_customization.logo_not_an_image',
      actual
        ? `The logo's bytes are ${actual}, not the declared ${contentType}.`
        : `The logo's bytes are not a PNG, JPEG or WebP file (declared ${contentType}): its file signature does not match.`,
      { field: 'data', declared: contentType, detected: actual },
    );
  }
  const imageId = `img_${randomBytes(16).toString('hex')}`;
  await putImage(merchantId, imageId, bytes, contentType);
  const { customization, replaced } = await replaceLogo(merchantId, { imageId, contentType, size: bytes.length }, now.toISOString());
  if (replaced && replaced.imageId !== imageId) await deleteImage(merchantId, replaced.imageId);
  return customizationView(customization);
}
