import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { generateJoinToken, merchantIdOfJoinToken } from '../../../shared/people/join-links.rules.ts';
import {
  generateInviteToken,
  INVITE_TTL_DAYS,
  invitationOfToken,
  inviteExpiry,
  inviteIdOf,
  inviteTokenVerifierOf,
  isInvitedPerson,
  isInviteToken,
} from '../../../shared/people/invites.rules.ts';

describe('team invitation links', () => {
  const merchantId = randomUUID();

  it('names the merchant and the invitation, and is told apart from an owner-claim join link by its prefix', () => {
    const inviteId = inviteIdOf(merchantId, 'Kim@Example.com');
    const token = generateInviteToken(merchantId, inviteId);
    expect(token).toMatch(/^inv_[0-9a-f-]{36}\.[0-9a-f]{16}\.[0-9a-f]{40}$/);
    expect(invitationOfToken(token)).toEqual({ merchantId, inviteId });
    expect(isInviteToken(token)).toBe(true);
    expect(merchantIdOfJoinToken(token)).toBeNull();
    const join = generateJoinToken(merchantId);
    expect(isInviteToken(join)).toBe(false);
    expect(invitationOfToken(join)).toBeNull();
    expect(invitationOfToken(`${token}0`)).toBeNull();
    expect(invitationOfToken(token.toUpperCase())).toBeNull();
  });

  it('gives every invitation of one address to one merchant the same id (so a new one replaces the old), and a new secret each time', () => {
    expect(inviteIdOf(merchantId, 'Kim@Example.com')).toBe(inviteIdOf(merchantId, ' kim@example.com'));
    expect(inviteIdOf(merchantId, 'kim@example.com')).not.toBe(inviteIdOf(randomUUID(), 'kim@example.com'));
    expect(inviteIdOf(merchantId, 'kim@example.com')).not.toBe(inviteIdOf(merchantId, 'kip@example.com'));
    const id = inviteIdOf(merchantId, 'kim@example.com');
    const [a, b] = [generateInviteToken(merchantId, id), generateInviteToken(merchantId, id)];
    expect(a).not.toBe(b);
    expect(inviteTokenVerifierOf(a)).not.toBe(inviteTokenVerifierOf(b));
    expect(inviteTokenVerifierOf(a)).not.toContain(a.split('.').at(-1));
  });

  it('expires as long after it is sent as a join link, and matches the address invited case-insensitively', () => {
    expect(INVITE_TTL_DAYS).toBe(7);
    expect(inviteExpiry('2026-01-01T00:00:00.000Z')).toBe('2026-01-08T00:00:00.000Z');
    expect(isInvitedPerson('KIM@example.com', 'kim@EXAMPLE.com')).toBe(true);
    expect(isInvitedPerson('kim@example.com', 'kim@example.org')).toBe(false);
  });
});
