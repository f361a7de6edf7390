// The contract of the DNS port: every resolver (the operating system's; the tests' own) passes
// this suite, run by providers/host-resolver.test.ts. None of it needs the network.
import { isIP } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { THostResolver } from './host-resolver';

export function hostResolverContract(adapter: string, resolver: THostResolver) {
  describe(`DNS port contract: ${adapter}`, () => {
    it('answers every address of localhost, each with its family', async () => {
      const answers = await resolver('localhost');
      expect(answers.map((a) => a.address)).toContain('127.0.0.1');
      for (const { address, family } of answers) expect(isIP(address)).toBe(family);
    });

    it('answers an address as itself', async () => {
      expect(await resolver('93.184.215.14')).toEqual([{ address: '93.184.215.14', family: 4 }]);
      expect(await resolver('2606:4700:4700::1111')).toEqual([
        { address: '2606:4700:4700::1111', family: 6 },
      ]);
    });

    it('rejects a name that does not resolve (.invalid never does, RFC 6761)', async () => {
      await expect(resolver('nowhere.invalid')).rejects.toThrow();
    });
  });
}
