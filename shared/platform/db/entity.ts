/**
 * The table's entity kit. Every kind of item is declared once, beside its repository (`<module>/<name>.entity.ts`):
 * its primary key, its index attributes and the schema of the record it holds. A repository writes
 * `Entity.item(record)` and reads `Entity.parse(item)`; nothing converts an item by hand.
 *
 * Items store a record's fields as they are, without its nulls (a null field is an absent attribute, so a
 * condition can say `attribute_not_exists(x)`); the schema reads an absent attribute back as the field's default
 * (`orNull` for null, `v.optional(…, [])` for an empty list, …) and drops the keys, the index attributes and the
 * `entity` tag, which are the table's, not the record's.
 */
import * as v from 'valibot';
import { withoutNulls } from './items.ts';
import { refusedItem } from './refused-item.ts';

/** A primary key of the table. */
export interface Key {
  pk: string;
  sk: string;
}

/** A field that is absent (or null) when the record has none: read as null. */
export const orNull = <S extends v.GenericSchema>(schema: S) => v.nullish(schema, null);

export interface EntityDeclaration<T extends K, K extends object> {
  /** The item's `entity` attribute (what a stream consumer or an operator reads first). */
  kind: string;
  /** The record an item holds; its output type is the record's type. */
  schema: v.GenericSchema<unknown, T>;
  /** The primary key of the record with this identity. */
  key: (of: K) => Key;
  /** The attributes written beside the record's fields: index keys, lowercased search copies, a TTL, … */
  attributes?: (record: T) => Record<string, unknown>;
}

export interface Entity<T extends K, K extends object> {
  kind: string;
  key: (of: K) => Key;
  /** The item that stores `record` (its key, its attributes, the `entity` tag, its fields without nulls). */
  item: (record: T) => Record<string, unknown>;
  /** The record an item holds; throws when the item's fields break this kind's schema (its `entity` tag is not read). */
  parse: (item: Record<string, unknown>) => T;
  /** `parse`, or null when there is no item. */
  parseOrNull: (item: Record<string, unknown> | undefined) => T | null;
  /**
   * The record a refused write saw: the item a failed condition sends back (`ReturnValuesOnConditionCheckFailure:
   * 'ALL_OLD'`, carried by the error unconverted), or null when there was none.
   */
  failedItem: (e: unknown) => T | null;
}

/** Declares one kind of item of the table. */
export function entity<T extends K, K extends object>(declaration: EntityDeclaration<T, K>): Entity<T, K> {
  const { kind, schema, key, attributes } = declaration;
  const parse = (item: Record<string, unknown>): T => v.parse(schema, item);
  return {
    kind,
    key,
    item: (record) => ({ ...withoutNulls(record), ...attributes?.(record), ...key(record), entity: kind }),
    parse,
    parseOrNull: (item) => (item ? parse(item) : null),
    failedItem: (e) => {
      const there = refusedItem(e);
      return there ? parse(there) : null;
    },
  };
}
