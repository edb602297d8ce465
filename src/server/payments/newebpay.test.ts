import { createCipheriv, createDecipheriv, webcrypto } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  buildMpgForm,
  decryptTradeInfo,
  encryptText,
  encryptTradeInfo,
  MpgError,
  sanitizeItemDesc,
  stripPadding,
  tradeSha,
  verifyCallback,
  type MpgFormInput,
  type MpgKeys,
} from './newebpay';
import { APPROVED_CARD } from './card-fixtures';

const keys: MpgKeys = {
  merchantId: 'MS123456789',
  hashKey: '12345678901234567890123456789012',
  hashIv: 'abcdefghijklmnop',
};

const input: MpgFormInput = {
  orderNo: 'ORD_20261121_0001',
  amount: 1000,
  itemDesc: 'Professional badge',
  email: 'buyer@example.com',
  langType: 'en',
  returnUrl: 'https://portal.example.com/api/v1/payments/newebpay/return',
  notifyUrl: 'https://portal.example.com/api/v1/payments/newebpay/notify',
  clientBackUrl: 'https://portal.example.com/en/orders/1',
  timestamp: 1_795_000_000,
};

/** A notify body as the gateway would send it. */
function callback(json: unknown, k: MpgKeys = keys) {
  const tradeInfo = encryptText(JSON.stringify(json), k);
  const status = (json as { Status?: string }).Status ?? 'SUCCESS';
  return {
    Status: status,
    MerchantID: k.merchantId,
    Version: '2.0',
    TradeInfo: tradeInfo,
    TradeSha: tradeSha(tradeInfo, k),
  };
}

const paid = {
  Status: 'SUCCESS',
  Message: '授權成功',
  Result: {
    MerchantID: keys.merchantId,
    Amt: 1000,
    TradeNo: '26112112345678',
    MerchantOrderNo: 'ORD_20261121_0001',
    ...APPROVED_CARD,
    RespondType: 'JSON',
    IP: '127.0.0.1',
    EscrowBank: 'HNCB',
    AuthBank: 'KGI',
  },
};

describe('TradeInfo encryption', () => {
  it('round-trips a query string, including non-ASCII text', () => {
    const params = { MerchantID: keys.merchantId, Amt: 1000, ItemDesc: '專業證 Professional badge & more=yes' };
    const hex = encryptTradeInfo(params, keys);
    expect(hex).toMatch(/^[0-9a-f]+$/);
    const back = new URLSearchParams(decryptTradeInfo(hex, keys));
    expect(Object.fromEntries(back)).toEqual({ ...params, Amt: '1000' });
  });

  it('uses standard PKCS7 padding: 1–16 bytes, each equal to the pad length', () => {
    // Lengths 1..40 cover every residue mod 16, including whole blocks (a full 16-byte pad block).
    for (let n = 1; n <= 40; n++) {
      const plain = 'x'.repeat(n);
      const hex = encryptText(plain, keys);
      const decipher = createDecipheriv('aes-256-cbc', Buffer.from(keys.hashKey), Buffer.from(keys.hashIv));
      decipher.setAutoPadding(false);
      const raw = Buffer.concat([decipher.update(Buffer.from(hex, 'hex')), decipher.final()]);
      const pad = raw[raw.length - 1]!;
      expect(pad).toBeGreaterThanOrEqual(1);
      expect(pad).toBeLessThanOrEqual(16);
      expect(pad).toBe(16 - (n % 16));
      expect([...raw.subarray(raw.length - pad)].every((b) => b === pad)).toBe(true);
      expect(raw.subarray(0, raw.length - pad).toString()).toBe(plain);
    }
  });

  it('matches an independent AES-CBC implementation (WebCrypto, PKCS7 by definition)', async () => {
    const plain = new URLSearchParams({ MerchantID: keys.merchantId, Amt: '1000', ItemDesc: '測試' }).toString();
    const key = await webcrypto.subtle.importKey('raw', Buffer.from(keys.hashKey), 'AES-CBC', false, ['encrypt']);
    const expected = Buffer.from(
      await webcrypto.subtle.encrypt({ name: 'AES-CBC', iv: Buffer.from(keys.hashIv) }, key, Buffer.from(plain)),
    ).toString('hex');
    expect(encryptText(plain, keys)).toBe(expected);
  });

  it('rejects bad hex and bad padding with a typed MpgError', () => {
    const hex = encryptText('hello', keys);
    for (const bad of ['', 'zz', hex.slice(0, 30), hex + '00', 'g'.repeat(32)]) {
      expect(() => decryptTradeInfo(bad, keys)).toThrow(MpgError);
    }
    const otherKeys = { ...keys, hashKey: 'abcdefghijklmnopqrstuvwxyz123456' };
    const err = (() => {
      try {
        // With another key the padding is almost certainly invalid (or the text is not UTF-8).
        decryptTradeInfo(encryptText('a'.repeat(100), otherKeys), keys);
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(MpgError);
    expect((err as MpgError).code).toBe('decrypt_failed');
  });

  /**
   * Encrypts as NewebPay's sample code (and SDKs copied from it) does: padded by hand to 32-byte
   * blocks with `n` bytes of value `n` (1–32), then AES-256-CBC without automatic padding.
   */
  const encrypt32 = (plain: string, k: MpgKeys = keys, pad = (n: number) => 32 - (n % 32)) => {
    const bytes = Buffer.from(plain, 'utf8');
    const n = pad(bytes.length);
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(k.hashKey), Buffer.from(k.hashIv));
    cipher.setAutoPadding(false);
    return Buffer.concat([cipher.update(Buffer.concat([bytes, Buffer.alloc(n, n)])), cipher.final()]).toString('hex');
  };
  /** Encrypts `raw` bytes exactly as given (whole blocks), for hand-made paddings. */
  const encryptRaw = (raw: Buffer) => {
    const cipher = createCipheriv('aes-256-cbc', Buffer.from(keys.hashKey), Buffer.from(keys.hashIv));
    cipher.setAutoPadding(false);
    return Buffer.concat([cipher.update(raw), cipher.final()]).toString('hex');
  };

  it("decrypts the 32-byte-block padding of NewebPay's sample code, every pad length 1–32", () => {
    const seen = new Set<number>();
    for (let n = 0; n < 64; n++) {
      const plain = JSON.stringify({ Status: 'SUCCESS', Message: '授權成功' }).slice(0, 40) + 'y'.repeat(n);
      seen.add(32 - (Buffer.byteLength(plain) % 32));
      expect(decryptTradeInfo(encrypt32(plain), keys), `length ${plain.length}`).toBe(plain);
    }
    // Pads longer than 16 (which Node's PKCS7 check refuses) and shorter ones were both covered.
    expect([...seen].sort((a, b) => a - b)).toEqual(Array.from({ length: 32 }, (_, i) => i + 1));
  });

  it('still decrypts standard PKCS7 (1–16 byte pads) as before', () => {
    for (let n = 1; n <= 48; n++) expect(decryptTradeInfo(encryptText('z'.repeat(n), keys), keys)).toBe('z'.repeat(n));
  });

  it('verifies a genuine callback whose TradeInfo the gateway padded to 32-byte blocks', () => {
    // An IP field sized so the pad is over 16 bytes: exactly what a PKCS7-only check refuses.
    let json = JSON.stringify(paid);
    for (let extra = 0; 32 - (Buffer.byteLength(json) % 32) <= 16; extra++)
      json = JSON.stringify({ ...paid, Result: { ...paid.Result, IP: `127.0.0.1${' '.repeat(extra)}` } });
    expect(32 - (Buffer.byteLength(json) % 32)).toBeGreaterThan(16);
    const tradeInfo = encrypt32(json);
    const body = { Status: 'SUCCESS', MerchantID: keys.merchantId, Version: '2.0', TradeInfo: tradeInfo };
    const result = verifyCallback({ ...body, TradeSha: tradeSha(tradeInfo, keys) }, keys);
    expect(result).toMatchObject({ ok: true, status: 'SUCCESS', result: { Amt: 1000, TradeNo: '26112112345678' } });
  });

  it('refuses corrupted padding: a zero pad byte, a pad over 32, a run that does not match, a pad longer than the text', () => {
    const text = Buffer.from('Status=SUCCESS&Amt=1000', 'utf8'); // 23 bytes
    const cases: [string, Buffer][] = [
      ['pad byte 0', Buffer.concat([text, Buffer.alloc(9, 0)])],
      ['pad byte 33', Buffer.concat([text, Buffer.alloc(9 + 32, 33)])],
      ['pad byte 200', Buffer.concat([text, Buffer.alloc(9, 200)])],
      ['mismatched run', Buffer.concat([text, Buffer.from([9, 9, 9, 9, 8, 9, 9, 9, 9])])],
      ['mismatched long run', Buffer.concat([text, Buffer.alloc(8, 7), Buffer.alloc(1, 25)])],
      ['pad longer than the data', Buffer.alloc(16, 17)],
    ];
    for (const [label, raw] of cases) {
      expect(raw.length % 16, label).toBe(0);
      let error: unknown;
      try {
        decryptTradeInfo(encryptRaw(raw), keys);
      } catch (e) {
        error = e;
      }
      expect(error, label).toBeInstanceOf(MpgError);
      expect((error as MpgError).code, label).toBe('decrypt_failed');
    }
    // The same text, correctly padded either way, passes.
    expect(decryptTradeInfo(encryptRaw(Buffer.concat([text, Buffer.alloc(9, 9)])), keys)).toBe(text.toString());
    expect(decryptTradeInfo(encryptRaw(Buffer.concat([text, Buffer.alloc(25, 25)])), keys)).toBe(text.toString());
  });

  it('stripPadding keeps exactly the bytes before a valid pad', () => {
    expect([...stripPadding(Uint8Array.from([65, 66, 2, 2]))!]).toEqual([65, 66]);
    expect([...stripPadding(Uint8Array.from([1]))!]).toEqual([]);
    expect(stripPadding(Uint8Array.from([]))).toBeNull();
    expect(stripPadding(Uint8Array.from([65, 3, 3]))).toBeNull();
  });

  it('refuses keys of the wrong length', () => {
    expect(() => encryptText('x', { ...keys, hashKey: 'short' })).toThrow(MpgError);
    expect(() => encryptText('x', { ...keys, hashIv: '0123456789abcdefX' })).toThrow(MpgError);
  });

  it('computes TradeSha as uppercase 64-hex SHA-256 of HashKey=…&TradeInfo&HashIV=…', async () => {
    const info = encryptText('Amt=1000', keys);
    const sha = tradeSha(info, keys);
    expect(sha).toMatch(/^[0-9A-F]{64}$/);
    const digest = await webcrypto.subtle.digest(
      'SHA-256',
      Buffer.from(`HashKey=${keys.hashKey}&${info}&HashIV=${keys.hashIv}`),
    );
    expect(sha).toBe(Buffer.from(digest).toString('hex').toUpperCase());
  });
});

describe('buildMpgForm', () => {
  const decrypt = (form: { TradeInfo: string }) =>
    Object.fromEntries(new URLSearchParams(decryptTradeInfo(form.TradeInfo, keys)));

  it('builds the four fields with the documented TradeInfo parameters', () => {
    const form = buildMpgForm(input, keys);
    expect(form.MerchantID).toBe(keys.merchantId);
    expect(form.Version).toBe('2.0');
    expect(form.TradeSha).toBe(tradeSha(form.TradeInfo, keys));
    expect(decrypt(form)).toEqual({
      MerchantID: keys.merchantId,
      RespondType: 'JSON',
      TimeStamp: '1795000000',
      Version: '2.0',
      MerchantOrderNo: 'ORD_20261121_0001',
      Amt: '1000',
      ItemDesc: 'Professional badge',
      LangType: 'en',
      TradeLimit: '600',
      ReturnURL: input.returnUrl,
      NotifyURL: input.notifyUrl,
      ClientBackURL: input.clientBackUrl,
      Email: 'buyer@example.com',
      CREDIT: '1',
    });
    expect(buildMpgForm(input, keys, '2.3').Version).toBe('2.3');
  });

  it('clamps TradeLimit to 60–900 and leaves out long e-mails and absent ClientBackURL', () => {
    expect(decrypt(buildMpgForm({ ...input, tradeLimitSeconds: 5 }, keys)).TradeLimit).toBe('60');
    expect(decrypt(buildMpgForm({ ...input, tradeLimitSeconds: 5000 }, keys)).TradeLimit).toBe('900');
    const params = decrypt(
      buildMpgForm({ ...input, email: 'a'.repeat(45) + '@example.com', clientBackUrl: undefined }, keys),
    );
    expect(params).not.toHaveProperty('Email');
    expect(params).not.toHaveProperty('ClientBackURL');
  });

  it('sanitises ItemDesc: no line breaks or quotes, at most 50 characters', () => {
    expect(sanitizeItemDesc('Badge "Pro"\r\n  for \'2026\'')).toBe('Badge Pro for 2026');
    expect(sanitizeItemDesc('“專業證”\n2026')).toBe('專業證 2026');
    const long = sanitizeItemDesc('專'.repeat(60));
    expect(Array.from(long)).toHaveLength(50);
    expect(Array.from(sanitizeItemDesc('😀'.repeat(60)))).toHaveLength(50); // no split surrogate pairs
    expect(decrypt(buildMpgForm({ ...input, itemDesc: 'Line1\nLine2 "x"' }, keys)).ItemDesc).toBe('Line1 Line2 x');
    expect(() => buildMpgForm({ ...input, itemDesc: ' "\n" ' }, keys)).toThrow(MpgError);
  });

  it('validates order number, amount and URLs', () => {
    const bad: Partial<MpgFormInput>[] = [
      { orderNo: '' },
      { orderNo: 'a'.repeat(31) },
      { orderNo: '0f8fad5b-d9cb-469f-a165-70867728950e' },
      { orderNo: 'ORD 1' },
      { orderNo: '訂單1' },
      { amount: 0 },
      { amount: -5 },
      { amount: 10.5 },
      { amount: Number.NaN },
      { returnUrl: 'https://x.example/' + 'a'.repeat(200) },
      { notifyUrl: 'javascript:alert(1)' },
      { clientBackUrl: 'not a url' },
      { timestamp: 0 },
    ];
    for (const b of bad) expect(() => buildMpgForm({ ...input, ...b }, keys), JSON.stringify(b)).toThrow(MpgError);
    expect(() => buildMpgForm({ ...input, orderNo: 'a'.repeat(30) }, keys)).not.toThrow();
    expect(() => buildMpgForm({ ...input, orderNo: '0f8fad5bd9cb469fa16570867728' }, keys)).not.toThrow();
  });
});

describe('verifyCallback', () => {
  it('accepts a genuine notify and returns the decrypted result', () => {
    const v = verifyCallback(callback(paid), keys);
    expect(v).toEqual({
      ok: true,
      status: 'SUCCESS',
      result: {
        MerchantID: keys.merchantId,
        Amt: 1000,
        TradeNo: '26112112345678',
        MerchantOrderNo: 'ORD_20261121_0001',
        ...APPROVED_CARD,
        Message: '授權成功',
        Status: 'SUCCESS',
      },
    });
  });

  it('takes the status from the protected JSON, not the outer field', () => {
    const body = { ...callback({ ...paid, Status: 'MPG03009', Message: 'declined' }), Status: 'SUCCESS' };
    const v = verifyCallback(body, keys);
    expect(v.ok && v.status).toBe('MPG03009');
  });

  it('accepts a numeric-string Amt and an upper-case TradeSha comparison', () => {
    const v = verifyCallback(callback({ ...paid, Result: { ...paid.Result, Amt: '1000' } }), keys);
    expect(v.ok && v.result.Amt).toBe(1000);
  });

  it('rejects tampering and garbage with distinct reasons, never throwing', () => {
    const good = callback(paid);
    const flip = (hex: string, at: number) => hex.slice(0, at) + (hex[at] === '0' ? '1' : '0') + hex.slice(at + 1);
    const tamperedInfo = flip(good.TradeInfo, 10);
    const otherMerchant = { ...keys, merchantId: 'MS999' };
    const cases: [Record<string, unknown>, string][] = [
      [{}, 'missing_fields'],
      [{ ...good, TradeSha: undefined }, 'missing_fields'],
      [{ ...good, TradeInfo: ['a'] }, 'missing_fields'],
      [{ ...good, TradeInfo: 'ab'.repeat(20_000) }, 'too_large'],
      [{ ...good, TradeInfo: tamperedInfo }, 'bad_trade_sha'],
      [{ ...good, TradeSha: flip(good.TradeSha, 3) }, 'bad_trade_sha'],
      [{ ...good, TradeSha: 'short' }, 'bad_trade_sha'],
      [{ ...good, MerchantID: 'MS999' }, 'wrong_merchant'],
      // Correctly signed garbage: only an attacker holding the keys could make these.
      [{ ...good, TradeInfo: 'zz', TradeSha: tradeSha('zz', keys) }, 'decrypt_failed'],
      [callback('not json' as unknown as object), 'bad_json'],
      [
        (() => {
          const t = encryptText('{oops', keys);
          return { ...good, TradeInfo: t, TradeSha: tradeSha(t, keys) };
        })(),
        'bad_json',
      ],
      [callback({ Status: 'SUCCESS', Message: 'x', Result: [] }), 'bad_json'],
      [callback({ ...paid, Result: { ...paid.Result, Amt: 'lots' } }), 'bad_result'],
      [callback({ ...paid, Result: { ...paid.Result, MerchantOrderNo: undefined } }), 'bad_result'],
      [callback({ ...paid, Result: { ...paid.Result, MerchantID: 'MS999' } }), 'wrong_result_merchant'],
      [callback(paid, otherMerchant), 'wrong_merchant'],
    ];
    for (const [body, reason] of cases) {
      expect(verifyCallback(body, keys), reason).toEqual({ ok: false, reason });
    }
    expect(verifyCallback(null as unknown as Record<string, unknown>, keys)).toEqual({
      ok: false,
      reason: 'missing_fields',
    });
  });
});
