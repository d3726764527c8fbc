/**
 * User MCP tokens: what a signed-in person mints in the dashboard for an MCP host that cannot do OAuth.
 *
 * Format: `mor_mcp_<mode>_<86 base64url characters>` — the spec's `{key_prefix}_mcp_`, then the deployment the token
 * is bound to (`mor_mcp_test_…` on sandbox, `mor_mcp_live_…` on live), then 64 bytes: the merchant's id and the
 * person's id (16 bytes each) and a 32-byte random secret. The ids let a request read the token, the merchant and
 * the person's membership in ONE `BatchGetItem`; the secret makes the token unguessable. A token of the other
 * deployment is told apart by its prefix before any read.
 *
 * Only derivations are stored: the token's id (`mcp_` + 24 hex of SHA-256 over a labelled input: found in one read)
 * and its verifier (SHA-256 of the token). Neither reveals the token. Pure: no I/O.
 */
import type { Mode } from '../domain/deployments.ts';
import { isUuid, randomHex, sha256Hex } from '../domain/secrets.ts';

/** What every user MCP token starts with: `{key_prefix}_mcp_`. */
export const MCP_TOKEN_PREFIX = 'mor_mcp_';

/** A user MCP token lives at most this long (the spec's limit), and this long unless asked for less. */
export const MCP_TOKEN_MAX_DAYS = 7;
export const MCP_TOKEN_DEFAULT_DAYS = 7;

const pattern = /^mor_mcp_(test|live)_([A-Za-z0-9_-]{86})$/;

const uuidBytes = (uuid: string): Buffer => Buffer.from(uuid.replaceAll('-', ''), 'hex');
const uuidOf = (bytes: Buffer): string => {
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
};

/** A new token of `mode` for `userId` acting on `merchantId` (both UUIDs). */
export function generateMcpToken(mode: Mode, merchantId: string, userId: string): string {
  if (!isUuid(merchantId) || !isUuid(userId)) throw new Error('An MCP token names a merchant and a person by their UUIDs');
  const payload = Buffer.concat([uuidBytes(merchantId), uuidBytes(userId), Buffer.from(randomHex(32), 'hex')]);
  return `${MCP_TOKEN_PREFIX}${mode}_${payload.toString('base64url')}`;
}

/** What a well-formed token says of itself (its deployment, merchant and person), or null for anything else. */
export function parseMcpToken(token: string): { mode: Mode; merchantId: string; userId: string } | null {
  const match = pattern.exec(token);
  if (!match) return null;
  const payload = Buffer.from(match[2]!, 'base64url');
  // 86 base64url characters hold 64 bytes and 4 spare bits: only the canonical spelling of those 64 bytes is a token.
  if (payload.length !== 64 || payload.toString('base64url') !== match[2]) return null;
  return { mode: match[1] as Mode, merchantId: uuidOf(payload.subarray(0, 16)), userId: uuidOf(payload.subarray(16, 32)) };
}

export const mcpTokenIdOf = (token: string): string => `mcp_${sha256Hex(`mcp-token-id:${token}`).slice(0, 24)}`;
export const isMcpTokenId = (id: string): boolean => /^mcp_[0-9a-f]{24}$/.test(id);
export const mcpTokenVerifierOf = (token: string): string => sha256Hex(token);
/** A short, non-secret reminder of which token this is: its prefix and its last four characters. */
export const mcpTokenHintOf = (token: string): string => `${token.slice(0, MCP_TOKEN_PREFIX.length + 5)}…${token.slice(-4)}`;

/** When a token minted at `now` for `days` days stops working. */
export const mcpTokenExpiry = (now: Date, days: number): string => new Date(now.getTime() + days * 86_400_000).toISOString();
