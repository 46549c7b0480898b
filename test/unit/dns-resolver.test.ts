import { describe, expect, it } from 'vitest';
import { systemResolver } from '../../src/adapters/dns-resolver.js';

describe('the webhook host resolver', () => {
  it('gives up on a lookup that takes longer than its deadline', async () => {
    const hanging = () => new Promise<never>(() => {});
    const resolve = systemResolver(50, hanging);
    await expect(resolve('slow.example')).rejects.toThrow('DNS lookup of slow.example took longer than 50 ms');
  });

  it('answers every address of a name found in time, and an IP literal without a lookup', async () => {
    const asked: string[] = [];
    const resolve = systemResolver(1_000, async (host) => {
      asked.push(host);
      return [
        { address: '203.0.113.7', family: 4 },
        { address: '2001:db8::7', family: 6 },
      ];
    });
    expect(await resolve('hooks.example')).toEqual([
      { address: '203.0.113.7', family: 4 },
      { address: '2001:db8::7', family: 6 },
    ]);
    expect(await resolve('198.51.100.1')).toEqual([{ address: '198.51.100.1', family: 4 }]);
    expect(asked).toEqual(['hooks.example']);
  });

  it('resolves localhost through the system (getaddrinfo reads /etc/hosts)', async () => {
    const addresses = await systemResolver()('localhost');
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.every((a) => a.address === '127.0.0.1' || a.address === '::1')).toBe(true);
  });
});
