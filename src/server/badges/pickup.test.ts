import { describe, expect, it } from 'vitest';
import { pickupCode, qrPng, verifyPickupCode } from './pickup';

const id = '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';

describe('pick-up codes', () => {
  it('verifies a code it signed and refuses tampering or another secret', () => {
    const code = pickupCode(id, 'secret-one-secret-one');
    expect(verifyPickupCode(code, 'secret-one-secret-one')).toBe(id);
    expect(verifyPickupCode(code, 'secret-two-secret-two')).toBeNull();
    expect(verifyPickupCode(code.replace(id, id.replace('6f', '7f')), 'secret-one-secret-one')).toBeNull();
    expect(verifyPickupCode(`${code}x`, 'secret-one-secret-one')).toBeNull();
    expect(verifyPickupCode('nonsense', 'secret-one-secret-one')).toBeNull();
  });
  it('renders a PNG', async () => {
    const png = Buffer.from(await qrPng(pickupCode(id, 'secret-one-secret-one')), 'base64');
    expect([...png.subarray(0, 8)]).toEqual([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  });
});
