/**
 * The font of the platform's PDFs: DejaVu Sans (the `dejavu-fonts-ttf` package), which covers Latin, Greek,
 * Cyrillic and more, so buyers' names print as written. PDFs embed only the glyphs they use (a subset).
 *
 * The function bundle carries the font file next to its code (the route's `assets`, copied by the stack); run
 * unbundled (tests, the local stack) it is read from the package. Read once per process.
 */
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

/** The font file, repository-relative: the invoice download route lists it in its `assets`. */
export const FONT_ASSET = 'node_modules/dejavu-fonts-ttf/ttf/DejaVuSans.ttf';
const FONT_FILE = 'DejaVuSans.ttf';

let font: Uint8Array | undefined;

/** The TrueType font's bytes. */
export function fontBytes(): Uint8Array {
  if (!font) {
    const beside = fileURLToPath(new URL(`./${FONT_FILE}`, import.meta.url));
    const file = existsSync(beside) ? beside : createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/${FONT_FILE}`);
    font = readFileSync(file);
  }
  return font;
}
