/**
 * The one S3 XML answer this project reads: ListObjectsV2 (`GET /?list-type=2`). Only what is needed is taken
 * from it: each `<Contents>` entry's `Key`, `Size` and `LastModified`; everything else (owner, ETag, storage
 * class, continuation tokens) is ignored. The answer is requested without `encoding-type`, so keys arrive as XML
 * text: entities are decoded (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&#NN;`, `&#xHH;`), and a CDATA section
 * is taken as is.
 */

export interface ListedObject {
  key: string;
  /** Bytes. */
  size: number;
  /** As S3 gives it: ISO 8601. */
  lastModified: string;
}

const entities: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** The text of an XML element's content: entities decoded, CDATA kept as is. */
export function xmlText(raw: string): string {
  return raw.replace(/<!\[CDATA\[([\s\S]*?)\]\]>|&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, cdata: string | undefined, entity: string | undefined) => {
    if (cdata !== undefined) return cdata;
    const e = entity!;
    if (e.startsWith('#x')) return String.fromCodePoint(Number.parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(Number.parseInt(e.slice(1), 10));
    return entities[e] ?? whole;
  });
}

/** The content of the first `<name>` element in `xml` (self-closing: empty), or undefined. */
function child(xml: string, name: string): string | undefined {
  const m = new RegExp(`<${name}(?:\\s[^>]*)?(?:/>|>([\\s\\S]*?)</${name}>)`).exec(xml);
  return m ? xmlText(m[1] ?? '') : undefined;
}

/** The objects of a ListObjectsV2 answer, in the order S3 gives them (by key). An empty listing gives []. */
export function parseListObjectsV2(xml: string): ListedObject[] {
  const objects: ListedObject[] = [];
  for (const m of xml.matchAll(/<Contents(?:\s[^>]*)?>([\s\S]*?)<\/Contents>/g)) {
    const body = m[1]!;
    const key = child(body, 'Key');
    if (key === undefined) continue;
    const size = Number(child(body, 'Size') ?? '0');
    objects.push({ key, size: Number.isFinite(size) ? size : 0, lastModified: child(body, 'LastModified') ?? '' });
  }
  return objects;
}
