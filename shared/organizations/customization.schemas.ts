/**
 * Checkout customization of a merchant (dashboard back end): display name, brand and accent colours, logo.
 */
import * as v from 'valibot';
import { DISPLAY_NAME_MAX } from './customization.rules.ts';
import { imageContentTypes, LOGO_MAX_BYTES } from '../domain/images.ts';
import { isoTime, uuid } from '../platform/http/schemas/common.ts';
import { named } from '../platform/http/schemas/named.ts';

const color = v.nullable(v.pipe(v.string('must be a colour written #RRGGBB'), v.regex(/^#[0-9A-Fa-f]{6}$/, 'must be a colour written #RRGGBB (e.g. #1A56DB)')));

/** The fields to change (null clears one, an absent one stays), at least one. */
export const updateCheckoutCustomizationRequest = named(
  'UpdateCheckoutCustomizationRequest',
  v.pipe(
    v.strictObject({
      displayName: v.optional(
        v.nullable(
          v.pipe(
            v.string('must be a string'),
            v.trim(),
            v.minLength(1, 'must not be empty (null clears it)'),
            v.maxCodePoints(DISPLAY_NAME_MAX, `must be at most ${DISPLAY_NAME_MAX} characters`),
          ),
        ),
      ),
      brandColor: v.optional(color),
      accentColor: v.optional(color),
    }),
    v.minEntries(1, 'must set at least one of displayName, brandColor, accentColor'),
  ),
);

/** Base64 of at most 512 KiB, with room for the service to name the size of a larger file. */
const LOGO_DATA_MAX_CHARS = 4 * Math.ceil((2 * LOGO_MAX_BYTES) / 3);

export const setCheckoutLogoRequest = named(
  'SetCheckoutLogoRequest',
  v.strictObject({
    /** `image/png`, `image/jpeg` or `image/webp` (no SVG); it must match the file's own signature. */
    contentType: v.pipe(v.string('must be a string'), v.maxCodePoints(100), v.description(`One of ${imageContentTypes.join(', ')}.`)),
    /** The file in base64, at most 512 KiB decoded. */
    data: v.pipe(v.string('must be a string'), v.maxLength(LOGO_DATA_MAX_CHARS, `must be at most ${LOGO_MAX_BYTES} bytes (512 KiB) once decoded`)),
  }),
);

const hexColor = v.nullable(v.pipe(v.string(), v.regex(/^#[0-9A-F]{6}$/)));

export const checkoutCustomization = named(
  'CheckoutCustomization',
  v.strictObject({
    merchantId: uuid,
    displayName: v.nullable(v.string()),
    brandColor: hexColor,
    accentColor: hexColor,
    logo: v.nullable(
      v.strictObject({
        /** On the platform's origin, cacheable for good (a new logo gets a new URL). */
        url: v.pipe(v.string(), v.url()),
        contentType: v.picklist(imageContentTypes),
        size: v.pipe(v.number(), v.integer(), v.minValue(1)),
      }),
    ),
    updatedAt: v.nullable(isoTime),
  }),
);

/** An image buyers see at checkout, answered as its bytes (`image/png`, `image/jpeg` or `image/webp`). */
export const checkoutImageBody = v.pipe(v.string(), v.description('The image (binary).'));
