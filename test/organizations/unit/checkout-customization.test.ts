/**
 * The checkout customization's pure rules: WCAG 2.x relative luminance and contrast ratios (checked against pairs
 * whose ratios are published, e.g. by WebAIM's contrast checker), and the image formats told apart by their file
 * signatures.
 */
import { describe, expect, it } from 'vitest';
import { contrastRatio, formatRatio, relativeLuminance } from '../../../shared/organizations/customization.rules.ts';
import { imageTypeOf } from '../../../shared/domain/images.ts';

describe('contrast against white (WCAG 2.x)', () => {
  it('gives the luminance of black 0 and of white 1', () => {
    expect(relativeLuminance('#000000')).toBe(0);
    expect(relativeLuminance('#FFFFFF')).toBeCloseTo(1, 10);
  });

  it.each([
    ['#000000', '#FFFFFF', 21],
    ['#FFFFFF', '#FFFFFF', 1],
    ['#767676', '#FFFFFF', 4.54],
    ['#777777', '#FFFFFF', 4.48],
    ['#FF0000', '#FFFFFF', 4.0],
    ['#0000FF', '#FFFFFF', 8.59],
    ['#FFCC00', '#FFFFFF', 1.51],
  ])('%s on %s is %s:1', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
    // Symmetric.
    expect(contrastRatio(b, a)).toBe(contrastRatio(a, b));
  });

  it('reads lower- and upper-case hex alike, and refuses anything that is not #RRGGBB', () => {
    expect(relativeLuminance('#1a56db')).toBe(relativeLuminance('#1A56DB'));
    for (const bad of ['#FFF', 'FFFFFF', '#GGGGGG', '#FFFFFF0', 'red']) expect(() => relativeLuminance(bad), bad).toThrow();
  });

  it('writes a ratio rounded down, so one just under 4.5 never reads as 4.5', () => {
    expect(formatRatio(4.4999)).toBe('4.49:1');
    expect(formatRatio(contrastRatio('#777777', '#FFFFFF'))).toBe('4.47:1');
    expect(formatRatio(21)).toBe('21.00:1');
  });
});

describe('image signatures', () => {
  const bytes = (...parts: Array<number[] | string>) => new Uint8Array(parts.flatMap((p) => (typeof p === 'string' ? [...Buffer.from(p, 'latin1')] : p)));

  it('tells PNG, JPEG and WebP by their first bytes', () => {
    expect(imageTypeOf(bytes([0x89], 'PNG\r\n\x1a\n', [0, 0, 0, 13]))).toBe('image/png');
    expect(imageTypeOf(bytes([0xff, 0xd8, 0xff, 0xe0, 0, 0x10], 'JFIF'))).toBe('image/jpeg');
    expect(imageTypeOf(bytes('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '))).toBe('image/webp');
  });

  it('refuses SVG, GIF, text, a RIFF that is not WebP, and truncated signatures', () => {
    for (const b of [
      bytes('<svg xmlns="http://www.w3.org/2000/svg"/>'),
      bytes('<?xml version="1.0"?><svg/>'),
      bytes('GIF89a'),
      bytes('hello, this is not a PNG'),
      bytes('RIFF', [0x24, 0, 0, 0], 'WAVEfmt '),
      bytes([0x89], 'PNG'),
      bytes([0xff, 0xd8]),
      bytes('RIFF'),
      new Uint8Array(0),
    ]) {
      expect(imageTypeOf(b)).toBeNull();
    }
  });
});
