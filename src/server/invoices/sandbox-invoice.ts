import { randomInt } from 'node:crypto';
import { Hono, type Context } from 'hono';
import { html } from 'hono/html';
import { CITIZEN_CERTIFICATE, LOVE_CODE, MOBILE_BARCODE } from '@domain/invoices';
import { checkCode, checkValue, decryptPostData, encryptPostData, EZPAY_CALLS, type EzpayKeys } from './ezpay';

/*
 * DEVELOPMENT/TEST e-invoice service (issue 22, decision 051). Stands in for ezPay when EZPAY_URL
 * is unset, speaking its protocol (reference ezpay-invoice.md §A) under /sandbox-invoice: it
 * decrypts PostData_ with the merchant's keys, validates the fields as ezPay does, keeps what it
 * issued in memory (a restart forgets it, like a fresh test account), and answers `{Status,
 * Message, Result}` with a CheckCode. Its page lists the invoices, voids and allowances, and has a
 * switch that makes the next call fail (the portal then retries). Mobile barcode `/0000000` and
 * love code `000` do not exist (the check calls answer IsExist=N); every other well-formed one does.
 */

type SandboxInvoice = {
  merchantOrderNo: string;
  invoiceNumber: string;
  randomNum: string;
  invoiceTransNo: string;
  category: string;
  buyerName: string;
  totalAmt: number;
  remainAmt: number;
  createTime: string;
  carrier: string;
  status: 'issued' | 'void';
  invalidReason?: string;
  allowances: { allowanceNo: string; amount: number; createTime: string }[];
};

export type SandboxInvoiceOptions = { keys: EzpayKeys; now?: () => number };

const TAIPEI_OFFSET_MS = 8 * 3600_000;
const taipeiTime = (ms: number) => new Date(ms + TAIPEI_OFFSET_MS).toISOString().slice(0, 19).replace('T', ' ');

/** A sandbox that never reaches the tax platform: nothing it issues is real. */
export function createSandboxInvoice(options: SandboxInvoiceOptions) {
  const { keys } = options;
  const now = options.now ?? Date.now;
  const issued = new Map<string, SandboxInvoice>();
  const byNumber = new Map<string, SandboxInvoice>();
  let serial = 0;
  let failNext = false;
  const app = new Hono().basePath('/sandbox-invoice');

  const answer = (c: Context, status: string, message: string, result: Record<string, string | number> = {}) =>
    c.json({ Status: status, Message: message, Result: status === 'SUCCESS' ? JSON.stringify(result) : '' });

  /** The decrypted parameters, or the error answer ezPay gives. */
  const read = async (
    c: Context,
  ): Promise<{ ok: true; p: Record<string, string> } | { ok: false; code: string; message: string }> => {
    const body = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
    if (body.MerchantID_ !== keys.merchantId) return { ok: false, code: 'KEY10006', message: '商店未啟用或不存在' };
    if (failNext) {
      failNext = false;
      return {
        ok: false,
        code: 'KEY10014',
        message: 'Sandbox: this call was made to fail (switch on the sandbox page)',
      };
    }
    try {
      return { ok: true, p: decryptPostData(String(body.PostData_ ?? ''), keys) };
    } catch {
      return { ok: false, code: 'KEY10002', message: '資料解密錯誤' };
    }
  };

  /**
   * An ezPay call: its parameters decrypted (else ezPay's error answer), the `required` ones there
   * (else KEY10004 naming the first one missing), then `handle`.
   */
  const call = (
    path: string,
    required: string[],
    handle: (c: Context, p: Record<string, string>) => Response | Promise<Response>,
  ) =>
    app.post(path, async (c) => {
      const r = await read(c);
      if (!r.ok) return answer(c, r.code, r.message);
      const absent = required.find((f) => !r.p[f]);
      if (absent) return answer(c, 'KEY10004', `資料不齊全 (${absent})`);
      return handle(c, r.p);
    });

  call(
    EZPAY_CALLS.invoice_issue.path,
    [
      'RespondType',
      'Version',
      'TimeStamp',
      'MerchantOrderNo',
      'Status',
      'Category',
      'BuyerName',
      'PrintFlag',
      'TaxType',
      'TaxRate',
      'Amt',
      'TaxAmt',
      'TotalAmt',
      'ItemName',
      'ItemCount',
      'ItemUnit',
      'ItemPrice',
      'ItemAmt',
    ],
    (c, p) => {
      if (!/^[A-Za-z0-9_]{1,20}$/.test(p.MerchantOrderNo!)) return answer(c, 'INV10014', '自訂編號格式錯誤');
      if (p.Category !== 'B2B' && p.Category !== 'B2C') return answer(c, 'INV10013', 'Category');
      const b2b = p.Category === 'B2B';
      if (b2b && !/^\d{8}$/.test(p.BuyerUBN ?? '')) return answer(c, 'INV10013', 'BuyerUBN');
      if (b2b && (p.CarrierType || p.LoveCode)) return answer(c, 'INV10013', 'CarrierType / LoveCode (B2C only)');
      if (p.CarrierType && p.LoveCode) return answer(c, 'INV10013', 'LoveCode excludes CarrierType');
      if (p.CarrierType === '0' && !MOBILE_BARCODE.test(p.CarrierNum ?? '')) return answer(c, 'INV10013', 'CarrierNum');
      if (p.CarrierType === '1' && !CITIZEN_CERTIFICATE.test(p.CarrierNum ?? ''))
        return answer(c, 'INV10013', 'CarrierNum');
      if (p.CarrierType === '2' && (!p.CarrierNum || !p.BuyerEmail))
        return answer(c, 'INV10013', 'CarrierNum / BuyerEmail');
      if (p.CarrierType && !['0', '1', '2'].includes(p.CarrierType)) return answer(c, 'INV10013', 'CarrierType');
      if (p.LoveCode && !LOVE_CODE.test(p.LoveCode)) return answer(c, 'INV10013', 'LoveCode');
      const paper = b2b || (!p.CarrierType && !p.LoveCode);
      if (paper !== (p.PrintFlag === 'Y')) return answer(c, 'INV10013', 'PrintFlag');
      if ([...(p.BuyerName ?? '')].length > (b2b ? 60 : 30)) return answer(c, 'INV10013', 'BuyerName');
      const [amt, tax, total] = [Number(p.Amt), Number(p.TaxAmt), Number(p.TotalAmt)];
      if (p.TaxType !== '1' || p.TaxRate !== '5' || amt + tax !== total || !Number.isInteger(total) || total <= 0)
        return answer(c, 'INV10012', '發票金額、課稅別驗證錯誤');
      const items = p.ItemName!.split('|');
      const counts = p.ItemCount!.split('|').map(Number);
      const prices = p.ItemPrice!.split('|').map(Number);
      const amounts = p.ItemAmt!.split('|').map(Number);
      if ([counts, prices, amounts].some((x) => x.length !== items.length) || items.some((n) => [...n].length > 30))
        return answer(c, 'INV10013', 'Item*');
      if (items.some((_, i) => counts[i]! * prices[i]! !== amounts[i])) return answer(c, 'INV10004', '商品小計錯誤');
      // B2B prices exclude the tax (Σ = Amt), B2C prices include it (Σ = TotalAmt).
      const sum = amounts.reduce((a, b) => a + b, 0);
      if (sum !== (b2b ? amt : total)) return answer(c, 'INV10004', '商品小計錯誤');
      if (issued.has(p.MerchantOrderNo!)) return answer(c, 'LIB10003', '商店自訂編號重覆');
      serial++;
      const at = now();
      const invoice: SandboxInvoice = {
        merchantOrderNo: p.MerchantOrderNo!,
        invoiceNumber: `ZH${String(10_000_000 + serial).slice(-8)}`,
        randomNum: String(randomInt(0, 10_000)).padStart(4, '0'),
        invoiceTransNo: `${taipeiTime(at).replace(/\D/g, '').slice(2)}${String(serial).padStart(5, '0')}`,
        category: p.Category!,
        buyerName: p.BuyerName!,
        totalAmt: total,
        remainAmt: total,
        createTime: taipeiTime(at),
        carrier: p.LoveCode ? `love code ${p.LoveCode}` : p.CarrierType ? `${p.CarrierType}: ${p.CarrierNum}` : 'paper',
        status: 'issued',
        allowances: [],
      };
      issued.set(invoice.merchantOrderNo, invoice);
      byNumber.set(invoice.invoiceNumber, invoice);
      return answer(c, 'SUCCESS', '發票開立成功', resultOf(invoice));
    },
  );

  const resultOf = (invoice: SandboxInvoice) => {
    const fields = {
      MerchantID: keys.merchantId,
      InvoiceTransNo: invoice.invoiceTransNo,
      MerchantOrderNo: invoice.merchantOrderNo,
      TotalAmt: invoice.totalAmt,
      RandomNum: invoice.randomNum,
    };
    return {
      ...fields,
      InvoiceNumber: invoice.invoiceNumber,
      CreateTime: invoice.createTime,
      CheckCode: checkCode(fields, keys),
      BarCode: `${invoice.createTime.slice(2, 4)}${invoice.invoiceNumber}${invoice.randomNum}`,
      QRcodeL: '',
      QRcodeR: '',
    };
  };

  call(EZPAY_CALLS.invoice_search.path, [], (c, p) => {
    const invoice = issued.get(p.MerchantOrderNo ?? '');
    if (!invoice || String(invoice.totalAmt) !== p.TotalAmt) return answer(c, 'INV20006', '查無發票資料');
    return answer(c, 'SUCCESS', '查詢成功', {
      ...resultOf(invoice),
      InvoiceStatus: invoice.status === 'void' ? '2' : '1',
    });
  });

  call(EZPAY_CALLS.invoice_invalid.path, [], (c, p) => {
    if (!p.InvoiceNumber || !p.InvalidReason) return answer(c, 'KEY10004', '資料不齊全');
    if ([...p.InvalidReason].length > 20) return answer(c, 'INV10013', 'InvalidReason');
    const invoice = byNumber.get(p.InvoiceNumber);
    if (!invoice) return answer(c, 'INV20006', '查無發票資料');
    if (invoice.status === 'void') return answer(c, 'LIB10005', '發票已作廢過');
    if (invoice.allowances.length) return answer(c, 'LIB10007', '無法作廢');
    invoice.status = 'void';
    invoice.invalidReason = p.InvalidReason;
    return answer(c, 'SUCCESS', '作廢成功', {
      MerchantID: keys.merchantId,
      InvoiceNumber: invoice.invoiceNumber,
      CreateTime: taipeiTime(now()),
      CheckCode: checkCode({ ...resultOf(invoice) }, keys),
    });
  });

  call(
    EZPAY_CALLS.allowance_issue.path,
    [
      'InvoiceNo',
      'MerchantOrderNo',
      'ItemName',
      'ItemCount',
      'ItemUnit',
      'ItemPrice',
      'ItemAmt',
      'ItemTaxAmt',
      'TotalAmt',
      'Status',
    ],
    (c, p) => {
      const invoice = byNumber.get(p.InvoiceNo!);
      if (!invoice || invoice.merchantOrderNo !== p.MerchantOrderNo) return answer(c, 'INV20006', '查無發票資料');
      if (invoice.status === 'void') return answer(c, 'LIB10005', '發票已作廢過');
      const amounts = p.ItemAmt!.split('|').map(Number);
      const taxes = p.ItemTaxAmt!.split('|').map(Number);
      const total = Number(p.TotalAmt);
      const counts = p.ItemCount!.split('|').map(Number);
      const prices = p.ItemPrice!.split('|').map(Number);
      if (amounts.some((a, i) => counts[i]! * prices[i]! !== a)) return answer(c, 'INV10004', '商品小計錯誤');
      if (amounts.reduce((a, b) => a + b, 0) + taxes.reduce((a, b) => a + (b || 0), 0) !== total || total <= 0)
        return answer(c, 'INV10012', '折讓金額錯誤');
      if (total > invoice.remainAmt) return answer(c, 'INV10012', '折讓金額超過發票餘額');
      invoice.remainAmt -= total;
      const allowance = {
        allowanceNo: `A${String(Date.now()).slice(-10)}${serial++}`,
        amount: total,
        createTime: taipeiTime(now()),
      };
      invoice.allowances.push(allowance);
      return answer(c, 'SUCCESS', '發票折讓開立成功', {
        AllowanceNo: allowance.allowanceNo,
        InvoiceNumber: invoice.invoiceNumber,
        MerchantID: keys.merchantId,
        MerchantOrderNo: invoice.merchantOrderNo,
        AllowanceAmt: total,
        RemainAmt: invoice.remainAmt,
        CheckCode: checkCode({ ...resultOf(invoice) }, keys),
      });
    },
  );

  /** The carrier checks: CheckValue over the encrypted PostData_, an encrypted `IsExist` answer. */
  const carrierCheck =
    (field: 'CellphoneBarcode' | 'LoveCode', pattern: RegExp, unknown: string) => async (c: Context) => {
      const body = (await c.req.parseBody().catch(() => ({}))) as Record<string, unknown>;
      const postData = String(body.PostData_ ?? '');
      if (body.MerchantID_ !== keys.merchantId) return c.json({ Status: 'KEY10006', Message: '商店未啟用或不存在' });
      if (body.CheckValue !== checkValue(postData, keys))
        return c.json({ Status: 'KEY10002', Message: 'CheckValue 錯誤' });
      let p: Record<string, string>;
      try {
        p = decryptPostData(postData, keys);
      } catch {
        return c.json({ Status: 'KEY10002', Message: '資料解密錯誤' });
      }
      const value = p[field] ?? '';
      const exists = pattern.test(value) && value !== unknown;
      return c.json({
        Status: 'SUCCESS',
        Message: '查詢成功',
        Result: encryptPostData({ MerchantID: keys.merchantId, [field]: value, IsExist: exists ? 'Y' : 'N' }, keys),
      });
    };
  app.post(EZPAY_CALLS.checkBarCode.path, carrierCheck('CellphoneBarcode', MOBILE_BARCODE, '/0000000'));
  app.post(EZPAY_CALLS.checkLoveCode.path, carrierCheck('LoveCode', LOVE_CODE, '000'));

  app.post('/fail-next', (c) => {
    failNext = true;
    return c.redirect('/sandbox-invoice', 303);
  });

  app.get('/', (c) => {
    const rows = [...issued.values()];
    c.header(
      'content-security-policy',
      "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; frame-ancestors 'none'",
    );
    c.header('cache-control', 'no-store');
    return c.html(html`<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>ezPay e-invoice sandbox</title>
<style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1a1a1a}table{border-collapse:collapse}th,td{border:1px solid #888;padding:.3rem .6rem;text-align:left}.banner{background:#fff3cd;padding:.5rem 1rem;border:1px solid #8a6d00}</style></head>
<body><main>
<p class="banner" role="note">ezPay sandbox — test invoices only, nothing reaches the tax platform <span lang="zh-TW">測試用電子發票，不會上傳財政部</span></p>
<h1>E-invoices issued <span lang="zh-TW">已開立的發票</span></h1>
<form method="post" action="/sandbox-invoice/fail-next"><button type="submit">Make the next call fail <span lang="zh-TW">讓下一次呼叫失敗</span></button>${failNext ? html` <strong>(armed)</strong>` : ''}</form>
${
  rows.length === 0
    ? html`<p>None yet. <span lang="zh-TW">尚未開立發票。</span></p>`
    : html`<table><caption>Invoices</caption><thead><tr><th scope="col">Number</th><th scope="col">Random code</th><th scope="col">Order</th><th scope="col">Category</th><th scope="col">Buyer</th><th scope="col">Carrier</th><th scope="col">Total (TWD)</th><th scope="col">Remaining</th><th scope="col">Issued</th><th scope="col">Status</th><th scope="col">Allowances</th></tr></thead><tbody>
${rows.map(
  (i) =>
    html`<tr><td>${i.invoiceNumber}</td><td>${i.randomNum}</td><td>${i.merchantOrderNo}</td><td>${i.category}</td><td>${i.buyerName}</td><td>${i.carrier}</td><td>${i.totalAmt}</td><td>${i.remainAmt}</td><td>${i.createTime}</td><td>${i.status === 'void' ? `void (${i.invalidReason ?? ''})` : 'issued'}</td><td>${i.allowances.map((a) => `${a.allowanceNo}: ${a.amount}`).join(', ')}</td></tr>`,
)}</tbody></table>`
}
</main></body></html>`);
  });

  return app;
}
