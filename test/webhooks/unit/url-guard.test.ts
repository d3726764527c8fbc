import { describe, expect, it, vi } from 'vitest';
import { UnprocessableError } from '../../../shared/domain/errors.ts';
import {
  assertDeliverableUrl,
  isPublicAddress,
  localStackPorts,
  LOOKUP_TIMEOUT_MS,
  normalizedWebhookUrl,
  type HostLookup,
} from '../../../shared/platform/net/url-guard.ts';

/**
 * The guard never connects anywhere, and name resolution is injected here (`fakeDns`), so these tests send
 * no traffic at all, not even a DNS query.
 */
const records: Record<string, string[]> = {
  'hooks.example.com': ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946'],
  'internal.example.com': ['10.0.0.5'],
  'metadata.example.com': ['169.254.169.254'],
  'loopback.example.com': ['127.0.0.1'],
  'v6-private.example.com': ['fd12:3456:789a::1'],
  'mixed.example.com': ['93.184.216.34', '192.168.0.10'],
  'empty.example.com': [],
};

function fakeDns(): { lookup: HostLookup; calls: string[] } {
  const calls: string[] = [];
  return {
    calls,
    lookup: async (host) => {
      calls.push(host);
      const found = records[host];
      if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
      return found;
    },
  };
}

async function refusal(url: string, allowLoopback = false, stackPorts?: number[]): Promise<UnprocessableError> {
  const dns = fakeDns();
  const error = await assertDeliverableUrl(url, { allowLoopback, localStackPorts: stackPorts, lookup: dns.lookup }).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error, `${url} should be refused`).toBeInstanceOf(UnprocessableError);
  expect(error).toMatchObject({ status: 422, code: 'webhook.url_forbidden', details: { field: 'url' } });
  return error as UnprocessableError;
}

async function accepted(url: string, allowLoopback = false, stackPorts?: number[]): Promise<string[]> {
  const dns = fakeDns();
  await expect(assertDeliverableUrl(url, { allowLoopback, localStackPorts: stackPorts, lookup: dns.lookup }), url).resolves.toBeUndefined();
  return dns.calls;
}

describe('assertDeliverableUrl (deployed: allowLoopback false)', () => {
  it('accepts an https URL whose name resolves only to public addresses', async () => {
    expect(await accepted('https://hooks.example.com/webhooks?src=mor')).toEqual(['hooks.example.com']);
    expect(await accepted('https://hooks.example.com:8443/x')).toEqual(['hooks.example.com']);
  });

  it('accepts a public IP literal without any lookup (and the guard itself never connects)', async () => {
    expect(await accepted('https://93.184.216.34/hook')).toEqual([]);
    expect(await accepted('https://172.32.0.1/hook')).toEqual([]);
    expect(await accepted('https://[2606:4700:4700::1111]/hook')).toEqual([]);
  });

  it('refuses plain http, other schemes and things that are not absolute URLs', async () => {
    expect((await refusal('http://hooks.example.com/hook')).message).toMatch(/HTTPS/);
    await refusal('http://127.0.0.1:8080/hook');
    await refusal('ftp://hooks.example.com/hook');
    await refusal('hooks.example.com/hook');
    await refusal('not a url');
    await refusal('');
    await refusal('https://hooks.example.com/a b');
    await refusal('https://hooks.example.com/\nx');
  });

  it('refuses userinfo', async () => {
    expect((await refusal('https://user:pass@hooks.example.com/hook')).message).toMatch(/user name or password/);
    await refusal('https://user@hooks.example.com/hook');
    await refusal('https://:pass@hooks.example.com/hook');
  });

  it('refuses URLs longer than 2048 characters', async () => {
    const base = 'https://hooks.example.com/';
    expect(await accepted(base + 'a'.repeat(2048 - base.length))).toHaveLength(1);
    expect((await refusal(base + 'a'.repeat(2049 - base.length))).message).toMatch(/2048/);
  });

  it('accepts port 443 and ports from 1024 up, and refuses the other well-known ports without resolving the name', async () => {
    for (const url of [
      'https://hooks.example.com:443/x',
      'https://hooks.example.com:1024/x',
      'https://hooks.example.com:65535/x',
      'https://93.184.216.34:8443/x',
    ]) {
      await accepted(url);
    }
    for (const port of [0, 1, 22, 25, 80, 1023]) {
      const dns = fakeDns();
      const error = await assertDeliverableUrl(`https://hooks.example.com:${port}/x`, { allowLoopback: false, lookup: dns.lookup }).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `port ${port}`).toMatchObject({ status: 422, code: 'webhook.url_forbidden' });
      expect((error as Error).message).toContain(`port ${port} is not allowed`);
      expect(dns.calls).toEqual([]);
    }
  });

  it('names the host in a refusal, never the path or query (they may carry a token)', async () => {
    const error = await refusal('https://internal.example.com:8443/hook?token=s3cr3t-receiver-token');
    expect(error.message).toContain('internal.example.com');
    expect(error.message).not.toContain('s3cr3t');
    expect((await refusal('https://hooks.example.com:22/x?token=s3cr3t')).message).not.toContain('s3cr3t');
  });

  it('refuses localhost names without resolving them', async () => {
    for (const url of ['https://localhost/hook', 'https://localhost:8443/hook', 'https://LOCALHOST./hook', 'https://api.localhost/hook']) {
      expect((await refusal(url)).message).toMatch(/localhost/);
    }
  });

  it.each([
    ['https://127.0.0.1/hook', 'loopback'],
    ['https://127.0.0.1:8443/hook', 'loopback'],
    ['https://0x7f.1/hook', 'loopback'], // WHATWG URL normalises this to 127.0.0.1
    ['https://2130706433/hook', 'loopback'],
    ['https://10.0.0.1/hook', 'private'],
    ['https://172.16.0.1/hook', 'private'],
    ['https://172.31.255.255/hook', 'private'],
    ['https://192.168.1.1/hook', 'private'],
    ['https://169.254.169.254/latest/meta-data', 'linkLocal'],
    ['https://100.64.0.1/hook', 'carrierGradeNat'],
    ['https://0.0.0.0/hook', 'unspecified'],
    ['https://224.0.0.1/hook', 'multicast'],
    ['https://255.255.255.255/hook', 'broadcast'],
    ['https://192.0.2.10/hook', 'reserved'],
    ['https://[::1]/hook', 'loopback'],
    ['https://[::]/hook', 'unspecified'],
    ['https://[fc00::1]/hook', 'uniqueLocal'],
    ['https://[fe80::1]/hook', 'linkLocal'],
    ['https://[::ffff:127.0.0.1]/hook', 'loopback'],
    ['https://[::ffff:7f00:1]/hook', 'loopback'],
    ['https://[::ffff:10.0.0.1]/hook', 'private'],
    ['https://[::ffff:93.184.216.34]/hook', 'ipv4Mapped'],
    ['https://[::7f00:1]/hook', 'reserved'], // IPv4-compatible ::/96, "unicast" to ipaddr.js but not global
    ['https://[2002:7f00:1::1]/hook', '6to4'],
    ['https://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/hook', 'teredo'],
    ['https://[64:ff9b::7f00:1]/hook', 'rfc6052'],
    ['https://[2001:db8::1]/hook', 'reserved'],
    ['https://[ff02::1]/hook', 'multicast'],
  ])('refuses the non-public literal %s (%s)', async (url, range) => {
    const error = await refusal(url);
    expect(error.message).toContain(`(${range})`);
  });

  it('refuses a name that resolves to a private, metadata or loopback address', async () => {
    expect((await refusal('https://internal.example.com/hook')).message).toMatch(/internal\.example\.com.*non-public.*\(private\)/);
    expect((await refusal('https://metadata.example.com/hook')).message).toMatch(/linkLocal/);
    expect((await refusal('https://loopback.example.com/hook')).message).toMatch(/loopback/);
    expect((await refusal('https://v6-private.example.com/hook')).message).toMatch(/uniqueLocal/);
  });

  it('refuses a name with one public and one private address', async () => {
    expect((await refusal('https://mixed.example.com/hook')).message).toMatch(/private/);
  });

  it('refuses a name that does not resolve, or resolves to nothing', async () => {
    expect((await refusal('https://nxdomain.example.com/hook')).message).toMatch(/could not be resolved/);
    expect((await refusal('https://empty.example.com/hook')).message).toMatch(/could not be resolved/);
  });

  it('refuses a name whose lookup never answers once LOOKUP_TIMEOUT_MS has passed', async () => {
    vi.useFakeTimers();
    try {
      const pending = assertDeliverableUrl('https://silent.example.com/hook', { allowLoopback: false, lookup: () => new Promise(() => {}) }).catch((e) => e);
      await vi.advanceTimersByTimeAsync(LOOKUP_TIMEOUT_MS);
      expect((await pending).message).toMatch(/could not be resolved/);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('assertDeliverableUrl (local stack: allowLoopback true)', () => {
  it('accepts http and https loopback receivers with an explicit port, without a lookup', async () => {
    for (const url of [
      'http://127.0.0.1:8080/hook',
      'http://localhost:8080/hook',
      'http://[::1]:8080/hook',
      'https://127.0.0.1:8443/hook',
      'https://localhost:8443/hook',
      'http://localhost:1024/hook',
    ]) {
      expect(await accepted(url, true)).toEqual([]);
    }
  });

  it('refuses loopback ports below 1024, even written out (443 too: the URL as stored would no longer name the receiver)', async () => {
    for (const url of ['http://localhost:80/hook', 'https://127.0.0.1:443/hook', 'http://127.0.0.1:9/x', 'http://[::1]:22/x', 'http://127.0.0.1:1023/x']) {
      expect((await refusal(url, true)).message, url).toMatch(/port \d+ is not allowed/);
    }
  });

  it("refuses the local stack's own ports (DynamoDB Local, the SQS server, the S3 server, the gateway) as receivers", async () => {
    const stack = [8100, 9324, 3000];
    for (const url of ['http://127.0.0.1:8100/', 'http://localhost:9324/000000000000/mor-local-webhooks', 'http://[::1]:3000/api/v1/dashboard/users']) {
      expect((await refusal(url, true, stack)).message, url).toMatch(/local stack's own/);
    }
    expect(await accepted('http://127.0.0.1:8080/hook', true, stack)).toEqual([]);
    // By default the ports come from this process's environment: here, the test run's own local stack.
    const dynamoPort = new URL(process.env.AWS_ENDPOINT_URL_DYNAMODB!).port;
    const gatewayPort = new URL(process.env.DASHBOARD_URL!).port;
    const s3Port = new URL(process.env.AWS_ENDPOINT_URL_S3!).port;
    await refusal(`http://127.0.0.1:${dynamoPort}/`, true);
    await refusal(`http://localhost:${gatewayPort}/api/health`, true);
    expect((await refusal(`http://127.0.0.1:${s3Port}/mor-local-policies`, true)).message).toMatch(/the S3 server/);
  });

  it('still refuses loopback without a port, other loopback addresses and every private network', async () => {
    await refusal('http://127.0.0.1/hook', true);
    await refusal('http://localhost/hook', true);
    await refusal('https://localhost/hook', true);
    await refusal('http://127.0.0.2:8080/hook', true);
    await refusal('https://127.0.0.2:8080/hook', true);
    await refusal('http://10.0.0.1:8080/hook', true);
    await refusal('https://10.0.0.1/hook', true);
    await refusal('https://192.168.1.1:8443/hook', true);
    await refusal('http://hooks.example.com:8080/hook', true);
    await refusal('https://internal.example.com/hook', true);
    await refusal('https://loopback.example.com/hook', true); // only the literal loopback hosts, not any name
    await refusal('http://user:pass@127.0.0.1:8080/hook', true);
  });

  it('still accepts public https destinations', async () => {
    expect(await accepted('https://hooks.example.com/hook', true)).toEqual(['hooks.example.com']);
  });
});

describe('localStackPorts', () => {
  it('takes the ports of the endpoints the local functions are given, and none on a deployed stage', () => {
    expect(
      localStackPorts({
        AWS_ENDPOINT_URL_DYNAMODB: 'http://127.0.0.1:8100',
        AWS_ENDPOINT_URL_DYNAMODB_STREAMS: 'http://127.0.0.1:8100',
        AWS_ENDPOINT_URL_SQS: 'http://127.0.0.1:9324',
        AWS_ENDPOINT_URL_S3: 'http://127.0.0.1:9000',
        AWS_ENDPOINT_URL_SESV2: 'http://127.0.0.1:41001',
        AWS_ENDPOINT_URL_SECRETS_MANAGER: 'http://127.0.0.1:41002',
        DASHBOARD_URL: 'http://localhost:3000',
        // The live stage's tokenization host, a gateway of the stack's own.
        LOCAL_TOKENIZATION_URL: 'http://localhost:3001',
      }).sort(),
    ).toEqual([3000, 3001, 41001, 41002, 8100, 9000, 9324]);
    expect(localStackPorts({ DASHBOARD_URL: 'https://dashboard.example.com', AWS_ENDPOINT_URL_SQS: 'not a url' })).toEqual([443]);
    expect(localStackPorts({})).toEqual([]);
  });
});

describe('normalizedWebhookUrl', () => {
  it('stores the WHATWG serialisation: scheme and host lower-cased, default port and dot segments gone, query kept', () => {
    expect(normalizedWebhookUrl('HTTPS://Hooks.Example.COM:443/a/../b?x=1&Y=2')).toBe('https://hooks.example.com/b?x=1&Y=2');
    expect(normalizedWebhookUrl('https://hooks.example.com')).toBe('https://hooks.example.com/');
    expect(normalizedWebhookUrl('http://LOCALHOST:8080/x')).toBe('http://localhost:8080/x');
  });
});

describe('isPublicAddress', () => {
  it.each([
    ['93.184.216.34', true],
    ['8.8.8.8', true],
    ['172.32.0.1', true],
    ['172.15.255.255', true],
    ['100.128.0.1', true],
    ['2606:4700:4700::1111', true],
    ['2a00:1450:4001:80b::200e', true],
    ['172.31.255.255', false],
    ['172.16.0.1', false],
    ['100.64.0.1', false],
    ['127.0.0.1', false],
    ['169.254.169.254', false],
    ['::1', false],
    ['::ffff:93.184.216.34', false],
    ['fe80::1', false],
    ['fd00::1', false],
    ['not-an-ip', false],
    ['', false],
    ['127.1', false], // not canonical text; URL parsing canonicalises hosts before this is called
  ])('%s → %s', (ip, expected) => {
    expect(isPublicAddress(ip)).toBe(expected);
  });
});
