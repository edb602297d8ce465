import { describe, expect, it } from 'vitest';
import { MESSAGES } from '@i18n/i18n';
import { formRows, type Lookup } from './form-view';

// The page's words: its catalogue with the enumerations' labels (as the order page passes them).
const en = MESSAGES.en;
const zh = MESSAGES['zh-TW'];

const lookupIn =
  (messages: Record<string, string>): Lookup =>
  (key) =>
    messages[key];
const files = new Map([['f1', { name: 'logo.png', href: '/api/v1/admin/files/f1' }]]);

describe('a stored form as the back office shows it', () => {
  it('labels fields as the registrant saw them, names enumerations, links files, lists items', () => {
    const rows = formRows(
      {
        companyNameEn: 'Harbour Pictures',
        companyIndustry: 3,
        companyBusinessCategory: [1, 2],
        companyLogoFileId: 'f1',
        agreeTerms: true,
        companyCountry: 'TWN',
        companyProfileZh: '',
        copyrightContacts: [{ key: 'abcdefghijklmnopqrstu', nameEn: 'May Lin', email: 'may@example.com' }],
      },
      lookupIn(en),
      files,
      (iso) => (iso === 'TWN' ? 'Taiwan' : undefined),
    );
    expect(rows.map((r) => r.label)).toEqual([
      'Company name (English)',
      'Industry',
      'Business categories',
      'Country or region',
      'Company logo',
      'Copyright contacts',
      en['admin.field.agreeTerms'],
    ]);
    expect(rows[1]!.value).toEqual({ kind: 'text', text: en['enum.companyType.3'] });
    expect(rows[2]!.value).toEqual({
      kind: 'text',
      text: `${en['enum.businessType.1']}, ${en['enum.businessType.2']}`,
    });
    expect(rows[3]!.value).toEqual({ kind: 'text', text: 'Taiwan' });
    expect(rows[4]!.value).toEqual({ kind: 'file', name: 'logo.png', href: '/api/v1/admin/files/f1' });
    const contacts = rows[5]!.value;
    expect(contacts.kind === 'group' && contacts.rows[0]).toMatchObject({
      label: 'Contact 1',
      value: { kind: 'group', rows: [{ label: 'Name (English)' }, { label: 'E-mail' }] },
    });
  });

  it('reads in Chinese with the Chinese labels; a badge application shows its two groups', () => {
    const rows = formRows(
      { applicant: { nameZh: '王小明', contactPhone: '886-912-345-678' }, badge: { nameEn: 'Ming' }, storyGenreId: 27 },
      lookupIn(zh),
      files,
    );
    expect(rows.map((r) => r.label)).toEqual([zh['badge.applicantInfo'], zh['badge.printedInfo'], '故事類型']);
    expect(rows[2]!.value).toEqual({ kind: 'text', text: '其他' });
  });
});
