/**
 * An item's size as DynamoDB counts it for capacity units ("DynamoDB item sizes and formats" in the DynamoDB
 * developer guide): each attribute's name in UTF-8 bytes plus its value — a string its UTF-8 bytes, a number one
 * byte per two significant digits plus one, a boolean or null one byte, a list or map three bytes plus its
 * elements (each with one byte more, and a map's element with its name). Items as the document client gives them.
 */
const utf8 = (s: string) => Buffer.byteLength(s, 'utf8');

/** The significant digits of a number: leading and trailing zeros (and the sign and point) left out. */
const significantDigits = (n: number) => String(Math.abs(n)).replace('.', '').replace(/e.*$/, '').replace(/^0+/, '').replace(/0+$/, '').length || 1;

function valueSize(value: unknown): number {
  if (value === null || value === undefined || typeof value === 'boolean') return 1;
  if (typeof value === 'string') return utf8(value);
  if (typeof value === 'number') return Math.ceil(significantDigits(value) / 2) + 1;
  if (value instanceof Uint8Array) return value.byteLength;
  if (value instanceof Set) return [...value].reduce<number>((n, v) => n + valueSize(v), 0);
  if (Array.isArray(value)) return value.reduce<number>((n, v) => n + 1 + valueSize(v), 3);
  return Object.entries(value as Record<string, unknown>).reduce((n, [name, v]) => n + 1 + utf8(name) + valueSize(v), 3);
}

/** The bytes of `item` as DynamoDB counts them. */
export const itemSize = (item: Record<string, unknown>): number => Object.entries(item).reduce((n, [name, v]) => n + utf8(name) + valueSize(v), 0);
