import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, guardedLookup, isPublicAddress } from '../src/index.ts';

describe('isPublicAddress', () => {
  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '2a00:1450:4001:82a::200e', '2001:4860::5efe:808:808'])(
    'accepts the public address %s',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it.each([
    ['0.0.0.0', 'unspecified'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.5.4', 'private'],
    ['192.168.1.1', 'private'],
    ['169.254.169.254', 'link-local (cloud metadata)'],
    ['100.64.0.1', 'carrier-grade NAT'],
    ['224.0.0.1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['::', 'unspecified'],
    ['::1', 'loopback'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local with a zone'],
    ['fc00::1', 'unique local'],
    ['fd12:3456::1', 'unique local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'IPv4-mapped loopback'],
    ['::ffff:7f00:1', 'IPv4-mapped loopback, hex form'],
    ['::ffff:10.0.0.1', 'IPv4-mapped private'],
    ['::ffff:169.254.169.254', 'IPv4-mapped link-local'],
    ['64:ff9b::a00:1', 'NAT64 of a private address'],
    ['2002:a00:1::', '6to4 of a private address'],
    ['2001:db8::1', 'documentation'],
    ['::127.0.0.1', 'IPv4-compatible loopback'],
    ['::7f00:1', 'IPv4-compatible loopback, as URL writes it'],
    ['::a00:1', 'IPv4-compatible private'],
    ['::8.8.8.8', 'IPv4-compatible, deprecated even for a public address'],
    ['::ffff:0:7f00:1', 'IPv4-translated loopback (RFC 6145)'],
    ['64:ff9b::7f00:1', 'NAT64 of loopback'],
    ['64:ff9b:1::a00:1', 'local-use NAT64 of a private address (RFC 8215)'],
    ['2002:7f00:1::', '6to4 of loopback'],
    ['2002:c0a8:101::1', '6to4 of a private address'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['100::1', 'discard-only'],
    ['3fff::1', 'documentation (RFC 9637)'],
    ['[::1]', 'bracketed loopback'],
    ['2001:4860::5efe:7f00:1', 'ISATAP identifier carrying loopback in a global prefix'],
    ['2001:4860::200:5efe:a00:1', 'ISATAP identifier (universal) carrying a private address'],
    ['2a00:1450::5efe:a9fe:a9fe', 'ISATAP identifier carrying link-local (cloud metadata)'],
    ['not-an-ip', 'garbage'],
  ])('refuses %s (%s)', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });
});

describe('checkWebhookUrl', () => {
  const strict = { allowPrivate: false };

  it('accepts public IP literals and refuses other schemes and credentials', async () => {
    expect((await checkWebhookUrl('https://1.1.1.1/hooks', strict)).ok).toBe(true);
    expect(await checkWebhookUrl('ftp://1.1.1.1/', strict)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('javascript:alert(1)', strict)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('https://user:pass@1.1.1.1/', strict)).toMatchObject({ ok: false });
    expect(await checkWebhookUrl('not a url', strict)).toMatchObject({ ok: false });
  });

  it.each([
    'http://127.0.0.1:8080/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::1]/',
    'http://[::ffff:10.0.0.1]/',
    'http://[::127.0.0.1]/',
    'http://[::ffff:7f00:1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://169.254.169.254/latest/meta-data',
    'http://localhost:3000/',
    'http://0.0.0.0/',
  ])('refuses %s', async (url) => {
    expect(await checkWebhookUrl(url, strict)).toMatchObject({ ok: false });
  });

  it('gives one answer for a name that does not resolve and one that resolves to a private address', async () => {
    const unresolvable = await checkWebhookUrl('http://nowhere.invalid/hooks', strict);
    const internal = await checkWebhookUrl('http://localhost/hooks', strict);
    const literal = await checkWebhookUrl('http://10.0.0.1/hooks', strict);
    expect(unresolvable).toEqual({ ok: false, reason: expect.any(String) });
    expect(internal).toEqual(unresolvable);
    expect(literal).toEqual(unresolvable);
  });

  it('allows private targets when the operator does', async () => {
    expect((await checkWebhookUrl('http://127.0.0.1:8080/', { allowPrivate: true })).ok).toBe(true);
    expect((await checkWebhookUrl('ftp://127.0.0.1/', { allowPrivate: true })).ok).toBe(false);
  });
});

describe('guardedLookup', () => {
  it('refuses a connection whose host resolves to loopback, and allows it when private targets are allowed', async () => {
    const server = http.createServer((_req, res) => res.end('ok'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const get = (allowPrivate: boolean) =>
      new Promise<number>((resolve, reject) => {
        http
          .get({ host: 'localhost', port, family: 4, lookup: guardedLookup({ allowPrivate }) as never }, (res) => {
            res.resume();
            resolve(res.statusCode ?? 0);
          })
          .on('error', reject);
      });
    try {
      await expect(get(false)).rejects.toMatchObject({ name: 'UnsafeAddressError' });
      await expect(get(true)).resolves.toBe(200);
    } finally {
      server.close();
    }
  });
});

describe('guardedLookup, when private targets are not allowed', () => {
  const lookup = (hostname: string) =>
    new Promise<unknown>((resolve) => {
      guardedLookup({ allowPrivate: false })(hostname, { all: true }, (error) => resolve(error));
    });

  it('fails alike for a name that does not resolve and one that resolves to a private address, naming no address', async () => {
    const [unresolvable, internal] = await Promise.all([lookup('nowhere.invalid'), lookup('localhost')]);
    expect(internal).toMatchObject({ name: 'UnsafeAddressError' });
    expect(String((internal as Error).message).replace('localhost', 'HOST')).toBe(
      String((unresolvable as Error).message).replace('nowhere.invalid', 'HOST'),
    );
    expect((internal as Error).message).not.toMatch(/127\.0\.0\.1|::1/);
  });
});
