/**
 * A merchant's checkout customization: display name, brand and accent colours and logo, on one item in the
 * merchant's partition (`MERCHANT#<merchantId>` / `CHECKOUTCUSTOMIZATION`), written only by UpdateItems that create
 * it when missing. No item yet means nothing is customized.
 */
import * as v from 'valibot';
import { type ImageContentType, imageContentTypes } from '../domain/images.ts';
import { entity, orNull } from '../platform/db/entity.ts';

export const customizationFields = ['displayName', 'brandColor', 'accentColor'] as const;
export type CustomizationField = (typeof customizationFields)[number];

export interface CheckoutLogo {
  imageId: string;
  contentType: ImageContentType;
  /** Bytes. */
  size: number;
}

export interface CheckoutCustomization extends Record<CustomizationField, string | null> {
  merchantId: string;
  logo: CheckoutLogo | null;
  /** Last change; null while nothing was ever set. */
  updatedAt: string | null;
}

/** A merchant's checkout customization (display name, colours, logo): one item in the merchant's partition. */
export const checkoutCustomization = (merchantId: string) => ({ pk: `MERCHANT#${merchantId}`, sk: 'CHECKOUTCUSTOMIZATION' });

export const CheckoutCustomizationEntity = entity<CheckoutCustomization, { merchantId: string }>({
  kind: 'checkoutCustomization',
  schema: v.object({
    merchantId: v.string(),
    displayName: orNull(v.string()),
    brandColor: orNull(v.string()),
    accentColor: orNull(v.string()),
    logo: orNull(v.object({ imageId: v.string(), contentType: v.picklist(imageContentTypes), size: v.optional(v.number(), 0) })),
    updatedAt: orNull(v.string()),
  }),
  key: (c) => checkoutCustomization(c.merchantId),
});
