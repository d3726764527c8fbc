/**
 * Checkout customization rules (pure): colours as `#RRGGBB`, and the contrast the pay button needs. The button's
 * text is white on the brand colour, so the brand colour must reach WCAG 2.x AA's 4.5:1 for normal text against
 * white (relative luminance of sRGB colours, WCAG 2.2 § "relative luminance" and "contrast ratio").
 */

export const HEX_COLOR_PATTERN = /^#[0-9A-Fa-f]{6}$/;
/** WCAG AA for normal-size text. */
export const MIN_CONTRAST_AGAINST_WHITE = 4.5;
export const DISPLAY_NAME_MAX = 100;

/** A channel of 0..255 in linear light. */
const linear = (channel: number): number => {
  const c = channel / 255;
  return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
};

/** The relative luminance (0 black to 1 white) of a `#RRGGBB` colour. */
export function relativeLuminance(hex: string): number {
  if (!HEX_COLOR_PATTERN.test(hex)) throw new Error(`Not a #RRGGBB colour: ${hex}`);
  const [r, g, b] = [1, 3, 5].map((i) => linear(Number.parseInt(hex.slice(i, i + 2), 16))) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast ratio (1 to 21) of two `#RRGGBB` colours. */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The ratio as people write it, rounded down to two decimals (so 4.499 never reads as 4.5): `2.95:1`. */
export const formatRatio = (ratio: number): string => `${(Math.floor(ratio * 100) / 100).toFixed(2)}:1`;
