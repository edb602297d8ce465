import { describe, expect, it } from 'vitest';
import { allowedHosts, hostAllowed } from './site-host';

describe('the Host a request may name (issue 12)', () => {
  const local = { siteUrl: undefined, host: 'localhost', port: 4321 };

  it('accepts the listening host and, on a loopback or wildcard address, its loopback names', () => {
    for (const host of ['localhost:4321', '127.0.0.1:4321', '[::1]:4321', 'LOCALHOST:4321'])
      expect(hostAllowed(host, local)).toBe(true);
    expect([...allowedHosts('0.0.0.0', 8080)]).toEqual(['localhost:8080', '127.0.0.1:8080', '[::1]:8080']);
    expect(hostAllowed('portal.internal:4321', { ...local, host: 'portal.internal' })).toBe(true);
    expect(hostAllowed('localhost', { ...local, port: 80 })).toBe(true);
  });

  it('refuses any other Host, another port, or none', () => {
    for (const host of ['evil.example', 'evil.example:4321', 'localhost:4322', 'localhost', '', null])
      expect(hostAllowed(host, local)).toBe(false);
    expect(hostAllowed('localhost:4321', { ...local, host: 'portal.internal' })).toBe(false);
  });

  it('leaves the Host alone when SITE_URL gives the public origin', () => {
    expect(hostAllowed('evil.example', { ...local, siteUrl: 'https://register.example.org' })).toBe(true);
  });
});
