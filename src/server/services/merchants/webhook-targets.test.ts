// What WEBHOOKS_ALLOW_PRIVATE=on opens (docs/webhooks.md, "Where a webhook may go"): http and
// the addresses of this machine and of private networks, for a developer's receiver; never
// link-local (cloud metadata), unspecified, multicast or reserved addresses. The default is
// merchant-webhook-targets.test.ts's.
import { describe, expect, it } from 'vitest';
import { PUBLIC_TEST_ADDRESS, testHostResolver } from '../../testing/host-resolver';
import { webhookTarget } from './webhook-targets';

const dns = testHostResolver();
dns.answer('metadata.shop.example', ['169.254.169.254']);
dns.answer('lan.shop.example', ['192.168.1.20', 'fd00::20']);

describe('with WEBHOOKS_ALLOW_PRIVATE=on', () => {
  it.each([
    'http://127.0.0.1:4000/hooks',
    'http://localhost:4000/hooks',
    'http://[::1]:4000/hooks',
    'http://10.1.2.3/hooks',
    'https://172.20.0.4/hooks',
    'http://lan.shop.example/hooks',
    'http://100.64.0.9/hooks',
    `http://${PUBLIC_TEST_ADDRESS}/hooks`,
    'https://shop.example/hooks',
  ])('a webhook may go to %s', async (url) => {
    expect(await webhookTarget(dns, true, url)).not.toBeNull();
  });

  it.each([
    'http://169.254.169.254/latest/meta-data/',
    'http://[fe80::1]/hooks',
    'http://[::ffff:169.254.169.254]/hooks',
    'http://metadata.shop.example/hooks',
    'http://0.0.0.0:4000/hooks',
    'http://[::]:4000/hooks',
    'http://224.0.0.1/hooks',
    'http://192.0.2.1/hooks',
    'http://nowhere.invalid/hooks',
    'ftp://127.0.0.1/hooks',
  ])('a webhook still may not go to %s', async (url) => {
    expect(await webhookTarget(dns, true, url)).toBeNull();
  });

  it('connects to the address it resolved', async () => {
    expect(await webhookTarget(dns, true, 'http://localhost:4000/hooks')).toMatchObject({
      address: '127.0.0.1',
      family: 4,
    });
  });
});
