/**
 * The order of a merchant's events, which no clock moves: an event's `createdAt` is the time in its UUID v7 id and
 * its listing key is `<createdAt>#<id>`, whatever its `occurredAt` (a sandbox test clock's time); the events API's
 * places (`after=<eventId>`, the cursor) and `admin listen`'s place are places in that order.
 */
import { randomUUID } from 'node:crypto';
import { v7 as uuidv7 } from 'uuid';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { LISTEN_OVERLAP_MS, ListenPlace } from '../../../infra/admin/listen-place.ts';
import { eventTimeOf } from '../../../shared/platform/events/event-ids.ts';
import { outboxEvent } from '../../../shared/platform/events/outbox.ts';
import { samplePayload } from '../../../shared/platform/events/catalog.ts';
import { eventCursorOf, listingKeyOf, positionOfCursor, positionOfEventId } from '../../../shared/webhooks/events.rules.ts';
import { listEventsQuery } from '../../../shared/webhooks/events.schemas.ts';

const merchant = { id: '0193a6f2-5c1e-7b3d-9a40-6f1d2e8c4b70', parentId: null };
const eventIdAt = (msecs: number) => `evt_${uuidv7({ msecs }).replaceAll('-', '')}`;

describe('event ids and times', () => {
  it('reads the real time in an id the outbox mints, and nothing in any other id', () => {
    const at = Date.parse('2026-12-01T10:20:30.456Z');
    expect(eventTimeOf(eventIdAt(at))).toBe('2026-12-01T10:20:30.456Z');
    expect(eventTimeOf(`evt_${randomUUID().replaceAll('-', '')}`)).toBeNull(); // a v4
    expect(eventTimeOf('evt_0123456789abcdef0123456789abcdef')).toBeNull();
    expect(eventTimeOf(eventIdAt(at).slice(4))).toBeNull();
  });

  it("lists an event a test clock dated 35 days ahead by the real time it was written, and keeps the clock's time as occurredAt", () => {
    const clockTime = new Date(Date.now() + 35 * 86_400_000).toISOString();
    const before = new Date().toISOString();
    const item = outboxEvent('subscription.created', merchant, samplePayload('subscription.created', merchant.id, clockTime) as never, clockTime).Put!.Item!;
    const after = new Date().toISOString();
    expect(item.occurredAt).toBe(clockTime);
    expect(item.createdAt).toBe(eventTimeOf(item.id as string));
    expect(item.createdAt >= before && item.createdAt <= after).toBe(true);
    expect(item.gsi1sk).toBe(`${item.createdAt}#${item.id}`);
    // Kept 30 days from when it was written, not from the clock's date.
    expect(item.ttl).toBe(Math.ceil(Date.parse(item.createdAt as string) / 1000) + 30 * 86_400);
  });

  it('gives listing keys in the order of the ids', () => {
    const ids = [1_000, 3, 2, 2, 2, 1].map((ms) => eventIdAt(1_764_000_000_000 + ms));
    const keys = ids.map((id) => listingKeyOf(positionOfEventId(id)!));
    expect(keys.sort().map((k) => k.slice(k.indexOf('#') + 1))).toEqual([...ids].sort());
  });
});

describe('the events API places', () => {
  it("takes after=<eventId> as the event's place, and refuses what the outbox never mints", () => {
    const id = eventIdAt(Date.parse('2026-12-01T00:00:00.000Z'));
    expect(v.parse(listEventsQuery, { after: id }).after).toEqual({ createdAt: '2026-12-01T00:00:00.000Z', id });
    for (const after of ['evt_0123456789abcdef0123456789abcdef', 'pay_123', id.toUpperCase(), `${id}0`]) {
      expect(v.safeParse(listEventsQuery, { after }).success, after).toBe(false);
    }
  });

  it('gives a cursor that names the listing key it was made of', () => {
    const id = eventIdAt(Date.parse('2026-12-01T00:00:00.000Z'));
    const key = `2026-12-01T00:00:00.000Z#${id}`;
    expect(listingKeyOf(positionOfCursor(eventCursorOf(key))!)).toBe(key);
    expect(positionOfCursor(Buffer.from(`${id}`, 'utf8').toString('base64url'))).toBeNull();
  });
});

describe("admin listen's place", () => {
  const t0 = Date.parse('2026-12-01T10:00:00.000Z');
  const event = (ms: number) => {
    const id = eventIdAt(t0 + ms);
    return { id, createdAt: eventTimeOf(id)! };
  };

  it('forwards each event once however often the overlap lists it, and moves its place to an event the overlap has left', () => {
    const place = new ListenPlace(undefined);
    const a = event(0);
    const b = event(1_000);
    expect([a, b].map((e) => place.isNew(e))).toEqual([true, true]);
    place.advance();
    expect(place.after).toBeUndefined(); // nothing is LISTEN_OVERLAP_MS older than the newest yet
    expect([a, b].map((e) => place.isNew(e))).toEqual([false, false]);

    const c = event(1_000 + LISTEN_OVERLAP_MS);
    expect(place.isNew(c)).toBe(true);
    place.advance();
    expect(place.after).toBe(b.id);
    // Listed again after the place (c), it is still not new; an event written late inside the overlap is.
    expect(place.isNew(c)).toBe(false);
    const late = event(1_500);
    expect(place.isNew(late)).toBe(true);
  });
});
