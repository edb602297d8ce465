import { createHmac, timingSafeEqual } from 'node:crypto';
import QRCode from 'qrcode';

/*
 * The badge QR code carries a signed pick-up code, `TCCF1.<badge id>.<signature>`: the badge desk
 * can tell a real badge from a made-up one offline, without trusting the phone that shows it.
 */
const PREFIX = 'TCCF1';

const signature = (badgeId: string, secret: string) =>
  createHmac('sha256', secret).update(`${PREFIX}.${badgeId}`).digest('base64url').slice(0, 22);

export function pickupCode(badgeId: string, secret: string): string {
  return `${PREFIX}.${badgeId}.${signature(badgeId, secret)}`;
}

/** The badge id of a genuine pick-up code, or null. */
export function verifyPickupCode(code: string, secret: string): string | null {
  const [prefix, badgeId, sig] = code.trim().split('.');
  if (prefix !== PREFIX || !badgeId || !sig || !/^[0-9a-f-]{36}$/i.test(badgeId)) return null;
  const expected = Buffer.from(signature(badgeId, secret));
  const given = Buffer.from(sig);
  return expected.length === given.length && timingSafeEqual(expected, given) ? badgeId : null;
}

/** A QR code PNG of the pick-up code, base64 (no data: prefix). */
export async function qrPng(code: string): Promise<string> {
  const buffer = await QRCode.toBuffer(code, { type: 'png', errorCorrectionLevel: 'M', margin: 2, width: 320 });
  return buffer.toString('base64');
}
