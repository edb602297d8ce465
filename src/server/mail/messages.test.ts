import { describe, expect, it } from 'vitest';
import { MAIL_MESSAGES, mt } from './messages';

const en = MAIL_MESSAGES.en;
const zh = MAIL_MESSAGES['zh-TW'];
const placeholders = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

/** The rules of src/i18n/messages.test.ts, for the words of the e-mails and the dev mailbox. */
describe('mail messages', () => {
  it('have the same keys and placeholders in en and zh-TW, none empty', () => {
    expect(Object.keys(zh).sort()).toEqual(Object.keys(en).sort());
    for (const [key, value] of Object.entries(en)) {
      expect(placeholders(zh[key as keyof typeof en]), key).toEqual(placeholders(value));
      expect(value.trim(), key).not.toBe('');
      expect(zh[key as keyof typeof en].trim(), key).not.toBe('');
    }
  });
  it('write Chinese with full-width punctuation and a space between Han and Latin letters or digits', () => {
    for (const [key, value] of Object.entries(zh)) {
      expect(/[\u4e00-\u9fff][,.:;!?()]/.test(value), `${key}: ${value}`).toBe(false);
      const text = value.replace(/\{\{\w+\}\}/g, ' ');
      expect(/[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]/.test(text), `${key}: ${value}`).toBe(false);
    }
  });
  it('use the glossary: 臺 in 新臺幣, 識別證, 訂單編號, 帳號末五碼, 統一編號', () => {
    const all = Object.values(zh).join('\n');
    expect(all).not.toMatch(/台/);
    expect(zh['fact.orderNo']).toBe('訂單編號');
    expect(zh['fact.lastFive']).toBe('帳號末五碼');
    expect(zh['fact.ubn']).toBe('統一編號');
    expect(zh['method.TWD']).toBe('新臺幣匯款');
    expect(zh['badge.subject']).toContain('識別證');
  });
  it('fill in placeholders and leave unknown ones visible', () => {
    expect(mt('en', 'paid.subject', { orderNo: 'TC1' })).toBe('Receipt for order TC1');
    expect(mt('zh-TW', 'paid.subject', { orderNo: 'TC1' })).toBe('訂單 TC1 付款收據');
    expect(mt('en', 'paid.subject')).toBe('Receipt for order {{orderNo}}');
  });
  it('say one link, not "1 links", for a count of one', () => {
    expect(mt('en', 'included.subject', { item: 'Story to Screen', count: 1 })).toBe(
      'Your exhibitor badge link for Story to Screen',
    );
    expect(mt('en', 'included.subject', { item: 'Market', count: 4 })).toBe('Your 4 exhibitor badge links for Market');
    expect(mt('zh-TW', 'included.subject', { item: '故事提案', count: 1 })).toBe('故事提案：您的展商識別證連結');
  });
});
