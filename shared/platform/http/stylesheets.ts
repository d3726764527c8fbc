/** The platform's pages' stylesheets: the shared base (`base.css`) followed by a page family's own, served as one file. */
import { readBuildAsset } from '../build-assets.ts';

/** The base every page stylesheet starts with; a stylesheet route lists it among its assets. */
export const BASE_STYLESHEET_FILE = 'shared/platform/http/base.css';

/** The base and the stylesheet at `file`, as one text (read once, at import). */
export const stylesheetOf = (file: string, what: string): string =>
  [BASE_STYLESHEET_FILE, file].map((f) => readBuildAsset(f, what, 'it is in the repository').toString('utf8')).join('\n');
