import { describe, expect, it } from 'vitest';
import { createT, formatMessage } from './t';
import { pickMessages } from './i18n';

describe('the islands’ translator', () => {
  const t = createT({
    'links.revoke_one': 'The unused link will be refused.',
    'links.revoke_other': '{{count}} unused links will be refused.',
    hello: 'Hello {{name}}',
  });
  it('chooses the plural form by count, as i18next names them', () => {
    expect(t('links.revoke', { count: 1 })).toBe('The unused link will be refused.');
    expect(t('links.revoke', { count: 0 })).toBe('0 unused links will be refused.');
    expect(t('links.revoke', { count: 3 })).toBe('3 unused links will be refused.');
  });
  it('fills placeholders, leaves a missing one visible, answers an unknown key with the key', () => {
    expect(t('hello', { name: 'Mei' })).toBe('Hello Mei');
    expect(t('hello', {})).toBe('Hello {{name}}');
    expect(t('nope')).toBe('nope');
    expect(formatMessage({ a: 'x {{n}}' }, 'a')).toBe('x {{n}}');
  });
  it('reads the back office’s plural message in both languages', () => {
    const en = createT(pickMessages('en', ['admin.links.batch.']));
    const zh = createT(pickMessages('zh-TW', ['admin.links.batch.']));
    expect(en('admin.links.batch.revokeUnusedBody', { count: 1 })).toMatch(/^The unused link will be refused/);
    expect(en('admin.links.batch.revokeUnusedBody', { count: 2 })).toMatch(/^2 unused links will be refused/);
    expect(zh('admin.links.batch.revokeUnusedBody', { count: 1 })).toMatch(/^1 條未使用的連結/);
  });
});
