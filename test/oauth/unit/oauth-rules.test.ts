/** The pure rules of the OAuth authorization server: PKCE S256, redirect URIs, metadata document URLs, token formats. */
import { describe, expect, it } from 'vitest';
import { agentScopes, MCP_PATH } from '../../../shared/domain/agent-scopes.ts';
import {
  authorizationServerMetadata,
  isCodeVerifier,
  isS256Challenge,
  metadataDocumentUrlProblem,
  newToken,
  parseToken,
  pkceMatches,
  protectedResourceMetadata,
  redirectUriProblem,
  redirectUriRegistered,
  s256ChallengeOf,
  tokenIdOf,
} from '../../../shared/oauth/oauth.rules.ts';
import { entityTagOf, notModified } from '../../../shared/platform/http/etag.ts';
import { oauthErrorCode } from '../../../shared/platform/http/errors.ts';

describe('PKCE (RFC 7636)', () => {
  // RFC 7636, appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it("computes the S256 challenge of the RFC's appendix B example", () => {
    expect(s256ChallengeOf(verifier)).toBe(challenge);
    expect(pkceMatches(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier, the challenge itself sent as verifier (plain), and a verifier one character off', () => {
    expect(pkceMatches(`${verifier.slice(0, -1)}j`, challenge)).toBe(false);
    expect(pkceMatches(challenge, challenge)).toBe(false);
    expect(pkceMatches('a'.repeat(43), challenge)).toBe(false);
  });

  it('takes verifiers of 43 to 128 characters of [A-Za-z0-9-._~] only', () => {
    expect(isCodeVerifier('a'.repeat(43))).toBe(true);
    expect(isCodeVerifier('a'.repeat(128))).toBe(true);
    expect(isCodeVerifier('a'.repeat(42))).toBe(false);
    expect(isCodeVerifier('a'.repeat(129))).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}~`)).toBe(true);
    expect(isCodeVerifier(`${'a'.repeat(42)}+`)).toBe(false);
    expect(isCodeVerifier(`${'a'.repeat(42)}=`)).toBe(false);
    // Out of bounds is refused even when its hash would match.
    const short = 'a'.repeat(42);
    expect(pkceMatches(short, s256ChallengeOf(short))).toBe(false);
  });

  it('takes as S256 challenge exactly 43 base64url characters', () => {
    expect(isS256Challenge(challenge)).toBe(true);
    expect(isS256Challenge(challenge.slice(1))).toBe(false);
    expect(isS256Challenge(`${challenge}A`)).toBe(false);
    expect(isS256Challenge(`${challenge.slice(1)}=`)).toBe(false);
    expect(isS256Challenge(`${challenge.slice(1)}+`)).toBe(false);
  });
});

describe('redirect URIs', () => {
  it.each([
    'https://claude.ai/api/mcp/auth_callback',
    'https://app.example:8443/cb?tenant=1',
    'http://127.0.0.1:33418/callback',
    'http://127.0.0.1/callback',
    'http://[::1]:8080/cb',
    'http://localhost:6274/oauth/callback',
    'http://LOCALHOST:6274/oauth/callback',
    `https://app.example/${'a'.repeat(2048 - 'https://app.example/'.length)}`,
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
  });

  it.each([
    ['', 'is empty'],
    [`https://app.example/${'a'.repeat(2049 - 'https://app.example/'.length)}`, 'longer than 2048'],
    ['http://app.example/cb', 'must use https'],
    ['http://127.0.0.2/cb', 'must use https'],
    ['http://localhost.evil.example/cb', 'must use https'],
    ['http://10.0.0.1/cb', 'must use https'],
    // Loopback, but not written as one of its three names.
    ['http://127.1/cb', 'must use https'],
    ['http://0x7f000001/cb', 'must use https'],
    ['http://2130706433:8080/cb', 'must use https'],
    ['http://[0:0:0:0:0:0:0:1]/cb', 'must use https'],
    ['ftp://app.example/cb', 'must use https'],
    ['cursor://anysphere.cursor-retrieval/oauth/callback', 'must use https'],
    ['javascript:alert(1)', 'must use https'],
    ['https://app.example/cb#x', 'fragment'],
    ['https://app.example/cb#', 'fragment'],
    ['https://user@app.example/cb', 'user name or password'],
    ['https://app.example/c b', 'whitespace'],
    ['https://app.example/\ncb', 'whitespace'],
    ['/relative', 'not an absolute URL'],
    // Parsed, these have a host and a port; as written, none (a browser and a strict client may disagree).
    ['https:///evil.example/cb', 'has no host'],
    ['http://127.0.0.1:/cb', 'empty port or port 0'],
    ['http://127.0.0.1:0/cb', 'empty port or port 0'],
    ['https://app.example:00/cb', 'empty port or port 0'],
  ])('refuses %j: %s', (uri, why) => {
    expect(redirectUriProblem(uri)).toContain(why);
  });

  it('matches a requested redirect URI to the registered ones exactly, character for character', () => {
    const registered = ['https://app.example/cb', 'http://127.0.0.1:33418/callback'];
    expect(redirectUriRegistered('https://app.example/cb', registered)).toBe(true);
    for (const uri of [
      'https://app.example/cb/',
      'https://APP.example/cb',
      'https://app.example/cb?x=1',
      'https://app.example:443/cb',
      'http://127.0.0.1:33419/callback',
    ]) {
      expect(redirectUriRegistered(uri, registered), uri).toBe(false);
    }
  });
});

describe('Client ID Metadata Document URLs', () => {
  it('take https URLs with a path, and plain http to loopback only where the local stack allows loopback', () => {
    expect(metadataDocumentUrlProblem('https://claude.ai/oauth/mcp-client.json', false)).toBeNull();
    expect(metadataDocumentUrlProblem('https://app.example/client?v=1', false)).toBeNull();
    expect(metadataDocumentUrlProblem('http://127.0.0.1:4000/client.json', false)).toBe('must use https');
    expect(metadataDocumentUrlProblem('http://127.0.0.1:4000/client.json', true)).toBeNull();
    expect(metadataDocumentUrlProblem('http://app.example/client.json', true)).toBe('must use https');
  });

  it.each([
    ['https://app.example', 'must have a path'],
    ['https://app.example/', 'must have a path'],
    ['https://app.example/./client.json', '. or ..'],
    ['https://app.example/a/../client.json', '. or ..'],
    ['https://app.example/client.json#x', 'fragment'],
    ['https://u:p@app.example/client.json', 'user name or password'],
    ['https://app example/client.json', 'not a valid URL'],
  ])('refuse %s', (url, why) => {
    expect(metadataDocumentUrlProblem(url, true)).toContain(why);
  });
});

describe('tokens', () => {
  it('say their kind, mode and family, and nothing else parses as one', () => {
    const access = newToken('access', 'test', 'otf_0123456789abcdef01234567');
    expect(access).toMatch(/^mor_oat_test_otf_0123456789abcdef01234567_[0-9a-f]{64}$/);
    expect(parseToken(access)).toEqual({ kind: 'access', mode: 'test', familyId: 'otf_0123456789abcdef01234567' });
    expect(parseToken(newToken('refresh', 'live', 'otf_0123456789abcdef01234567'))).toMatchObject({ kind: 'refresh', mode: 'live' });
    for (const token of ['mor_mcp_xxx', 'mor_oat_xxx', `${access}0`, access.replace('_test_', '_prod_'), `mor_test_${'0'.repeat(64)}`, '']) {
      expect(parseToken(token), token).toBeNull();
    }
  });

  it('are found by an id derived from them that reveals nothing of them', () => {
    const token = newToken('access', 'test', 'otf_0123456789abcdef01234567');
    expect(tokenIdOf(token, 'access')).toMatch(/^oat_[0-9a-f]{24}$/);
    expect(tokenIdOf(token, 'refresh')).toMatch(/^ort_[0-9a-f]{24}$/);
    expect(token).not.toContain(tokenIdOf(token, 'access').slice(4));
    expect(newToken('access', 'test', 'otf_0123456789abcdef01234567')).not.toBe(token);
  });
});

describe('the discovery documents', () => {
  it("name the deployment's origin as issuer and its MCP endpoint, exactly, as the resource", () => {
    const origin = 'https://pay.example';
    expect(authorizationServerMetadata(origin)).toMatchObject({
      issuer: origin,
      token_endpoint: `${origin}/api/v1/oauth/token`,
      code_challenge_methods_supported: ['S256'],
      scopes_supported: [...agentScopes],
    });
    expect(protectedResourceMetadata(origin)).toMatchObject({ resource: `${origin}${MCP_PATH}`, authorization_servers: [origin] });
  });
});

describe('entity tags', () => {
  it('hash the body, and If-None-Match holds a tag as *, in a list, or weakly', () => {
    const tag = entityTagOf('{"a":1}');
    expect(tag).toMatch(/^"[0-9a-f]{32}"$/);
    expect(entityTagOf('{"a":2}')).not.toBe(tag);
    expect(notModified(tag, tag)).toBe(true);
    expect(notModified('*', tag)).toBe(true);
    expect(notModified(`"x", ${tag}`, tag)).toBe(true);
    expect(notModified(`W/${tag}`, tag)).toBe(true);
    expect(notModified('"x"', tag)).toBe(false);
    expect(notModified(undefined, tag)).toBe(false);
    expect(notModified('', tag)).toBe(false);
  });
});

describe('OAuth error codes', () => {
  it("keep the RFCs' codes and map the platform's own refusals by status", () => {
    expect(oauthErrorCode(400, 'invalid_grant')).toBe('invalid_grant');
    expect(oauthErrorCode(400, 'invalid_redirect_uri')).toBe('invalid_redirect_uri');
    expect(oauthErrorCode(400, 'request.validation_failed')).toBe('invalid_request');
    expect(oauthErrorCode(415, 'request.unsupported_media_type')).toBe('invalid_request');
    expect(oauthErrorCode(404, 'route.not_found')).toBe('invalid_request');
    expect(oauthErrorCode(401, 'auth.invalid')).toBe('invalid_client');
    expect(oauthErrorCode(429, 'auth.too_many_attempts')).toBe('temporarily_unavailable');
    expect(oauthErrorCode(500, 'internal_error')).toBe('server_error');
    expect(oauthErrorCode(403, 'forbidden')).toBe('invalid_request');
  });
});
