import { describe, expect, it } from 'vitest';
import {
  allowanceParams,
  checkCode,
  checkCodeMatches,
  checkValue,
  decryptPostData,
  encryptPostData,
  issueParams,
  readAnswer,
  type IssueInput,
} from './ezpay';

// Vectors computed outside Node, with OpenSSL and sha256sum, as the reference describes them:
//   printf '%s' "$PLAIN" | openssl enc -aes-256-cbc -K <hex of HashKey> -iv <hex of HashIV> | xxd -p
//   printf 'HashIV=…&InvoiceTransNo=…&MerchantID=…&MerchantOrderNo=…&RandomNum=…&TotalAmt=…&HashKey=…' | sha256sum
const keys = { merchantId: 'EZ_TEST', hashKey: 'abcdefghijklmnopqrstuvwxyz123456', hashIv: '1234567890abcdef' };
const PLAIN = {
  RespondType: 'JSON',
  Version: '1.5',
  TimeStamp: '1795720021',
  MerchantOrderNo: 'TC261126ABC123',
  TotalAmt: '1000',
};
const CIPHER =
  '178eac9744147e240b87889536ce795f14ecf073c15b66cf34e1e73643b8696ff4a81cadd0e49560aeadc85209a94a8c54bf4343914caaca6f6c4cb232eddc2b6aa5dc9cea5d53ad258dc58fa0e0dab919e61f8b144895d199872eef9e07cc15';

describe('ezPay PostData_ (AES-256-CBC of the query string, lowercase hex)', () => {
  it('encrypts to the OpenSSL vector and decrypts it back', () => {
    expect(encryptPostData(PLAIN, keys)).toBe(CIPHER);
    expect(decryptPostData(CIPHER, keys)).toEqual(PLAIN);
    expect(decryptPostData(CIPHER.toUpperCase(), keys)).toEqual(PLAIN);
  });
  it('round-trips Chinese text and separators', () => {
    const params = { ItemName: '專業證|報名費', BuyerName: '王小明 & Co.', CarrierNum: '/AB+1.-2' };
    expect(decryptPostData(encryptPostData(params, keys), keys)).toEqual(params);
  });
  it('refuses other keys', () => {
    expect(() => decryptPostData(CIPHER, { ...keys, hashKey: 'x'.repeat(32) })).toThrow();
  });
});

describe('CheckCode and CheckValue', () => {
  const fields = {
    InvoiceTransNo: '26112617000000001',
    MerchantID: 'EZ_TEST',
    MerchantOrderNo: 'TC261126ABC123',
    RandomNum: '0142',
    TotalAmt: 1000,
  };
  it('is the upper-hex SHA-256 of the five fields A–Z between HashIV and HashKey', () => {
    expect(checkCode(fields, keys)).toBe('C1335F02039D03F6227BEBCDE5B5C1BD51C0156A07C3CAC9D8CE589C8E18B66B');
    expect(checkCodeMatches(checkCode(fields, keys).toLowerCase(), checkCode(fields, keys))).toBe(true);
    expect(checkCodeMatches('0'.repeat(64), checkCode(fields, keys))).toBe(false);
  });
  it('checks a carrier with HashKey … PostData_ … HashIV', () => {
    expect(checkValue('deadbeef', keys)).toBe('3964D4AEE159558C29558440183D7F66F37D957CDF6E38CAB9097395BAC82070');
  });
});

describe('invoice_issue and allowance_issue parameters', () => {
  const base: IssueInput = {
    merchantOrderNo: 'TC261126ABC123',
    kind: 'b2c',
    buyerName: 'Amy',
    buyerUbn: null,
    buyerEmail: 'amy@example.com',
    carrierType: 'ezpay',
    carrierNumber: null,
    loveCode: null,
    itemName: 'Professional badge | 2026',
    totalTwd: 1000,
    tax: 48,
  };
  const now = new Date('2026-11-26T09:00:00Z');
  it('B2C: tax-included prices, ezPay member carrier = the e-mail, no paper', () => {
    expect(issueParams(base, now)).toMatchObject({
      Version: '1.5',
      Status: '1',
      Category: 'B2C',
      CarrierType: '2',
      CarrierNum: 'amy@example.com',
      LoveCode: '',
      PrintFlag: 'N',
      KioskPrintFlag: '1',
      TaxType: '1',
      TaxRate: '5',
      Amt: '952',
      TaxAmt: '48',
      TotalAmt: '1000',
      ItemPrice: '1000',
      ItemAmt: '1000',
      ItemName: 'Professional badge 2026',
      TimeStamp: String(now.getTime() / 1000),
    });
  });
  it('B2C carriers: mobile 0, certificate 1; donation sends the love code and no carrier', () => {
    expect(issueParams({ ...base, carrierType: 'mobile', carrierNumber: '/ABC1234' }, now)).toMatchObject({
      CarrierType: '0',
      CarrierNum: '/ABC1234',
      KioskPrintFlag: '',
    });
    expect(issueParams({ ...base, carrierType: 'certificate', carrierNumber: 'AB12345678901234' }, now)).toMatchObject({
      CarrierType: '1',
    });
    expect(issueParams({ ...base, carrierType: 'donation', loveCode: '884' }, now)).toMatchObject({
      CarrierType: '',
      CarrierNum: '',
      LoveCode: '884',
      PrintFlag: 'N',
    });
  });
  it('B2B: the UBN, paper, tax-excluded prices (Amt + TaxAmt = TotalAmt)', () => {
    const p = issueParams(
      { ...base, kind: 'b2b', buyerName: 'Good Pictures', buyerUbn: '04595257', carrierType: 'none' },
      now,
    );
    expect(p).toMatchObject({
      Category: 'B2B',
      BuyerUBN: '04595257',
      CarrierType: '',
      PrintFlag: 'Y',
      ItemPrice: '952',
      Amt: '952',
    });
    expect(Number(p.Amt) + Number(p.TaxAmt)).toBe(Number(p.TotalAmt));
  });
  it('allowance: TotalAmt = ItemAmt + ItemTaxAmt (B2B tax apart, B2C tax included)', () => {
    const input = {
      invoiceNumber: 'ZH10000001',
      merchantOrderNo: 'TC1',
      itemName: 'Badge',
      buyerEmail: 'a@b.c',
      amountTwd: 500,
      tax: 24,
    };
    expect(allowanceParams({ ...input, kind: 'b2b' }, now)).toMatchObject({
      ItemAmt: '476',
      ItemTaxAmt: '24',
      TotalAmt: '500',
    });
    expect(allowanceParams({ ...input, kind: 'b2c' }, now)).toMatchObject({
      ItemAmt: '500',
      ItemTaxAmt: '0',
      TotalAmt: '500',
    });
  });
});

describe('answers', () => {
  it('reads Result as a JSON string; any other Status is a failure with its code', () => {
    expect(
      readAnswer({
        Status: 'SUCCESS',
        Message: '發票開立成功',
        Result: '{"InvoiceNumber":"ZH10000001","TotalAmt":1000}',
      }),
    ).toEqual({
      ok: true,
      result: { InvoiceNumber: 'ZH10000001', TotalAmt: '1000' },
    });
    expect(readAnswer({ Status: 'LIB10003', Message: '商店自訂編號重覆', Result: '' })).toEqual({
      ok: false,
      status: 'LIB10003',
      message: '商店自訂編號重覆',
    });
    expect(readAnswer({ Status: 'SUCCESS', Result: '{' })).toMatchObject({ ok: false, status: 'BAD_RESULT' });
  });
});
