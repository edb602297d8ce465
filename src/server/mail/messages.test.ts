import { describe, expect, it } from 'vitest';
import { catalogue } from '@i18n/catalogues';
import { mt } from './messages';

// The rules every catalogue keeps (same keys and placeholders, full-width punctuation…) are
// checked for the mail's too, in src/i18n/messages.test.ts.
describe('mail messages', () => {
  it('use the glossary: 臺 in 新臺幣, 識別證, 訂單編號, 帳號末五碼, 統一編號', () => {
    const zh = catalogue('mail', 'zh-TW');
    expect(Object.values(zh).join('\n')).not.toMatch(/台/);
    expect(zh['fact.orderNo']).toBe('訂單編號');
    expect(zh['fact.lastFive']).toBe('帳號末五碼');
    expect(zh['fact.ubn']).toBe('統一編號');
    expect(zh['badge.subject']).toContain('識別證');
  });
  it('share the pages’ words for identities, payment types and the organiser', () => {
    expect(mt('zh-TW', 'pay.type.TWD')).toBe('新臺幣匯款');
    expect(mt('en', 'identity.EXHIBITOR_PITCHING')).toBe('Exhibitor (Pitching)');
    expect(mt('zh-TW', 'footer.organiser')).toBe('主辦單位：文化內容策進院');
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
