import { describe, expect, it } from 'vitest';
import { BadgeApplication } from '@domain/badges';
import { OrderPaymentUpdate } from '@domain/payments';
import { fieldErrors, stillFailing } from './form-errors';

const valid = {
  applicant: {
    nameZh: '王小明',
    nameEn: 'Hsiao-ming Wang',
    companyNameZh: '',
    companyNameEn: '',
    contactPhone: '886-912-345-678',
  },
  badge: { nameZh: '王小明', nameEn: 'Wang Hsiao-ming', companyNameZh: '', companyNameEn: '' },
  personalPhotoFileId: '6f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f',
};

describe('field errors from the shared structs', () => {
  it('finds nothing wrong with a valid application', () => {
    expect(fieldErrors(valid, BadgeApplication)).toEqual({});
  });
  it('names each field: required, too long (with the limit), phone format', () => {
    const errors = fieldErrors(
      {
        ...valid,
        applicant: { ...valid.applicant, nameEn: ' ', contactPhone: 'call me' },
        badge: { ...valid.badge, nameZh: '王小明先生好', nameEn: 'A name that is far too long' },
      },
      BadgeApplication,
    );
    expect(errors['applicant.nameEn']).toEqual({ key: 'form.required' });
    expect(errors['applicant.contactPhone']).toEqual({ key: 'form.phone' });
    expect(errors['badge.nameZh']).toEqual({ key: 'form.tooLong', values: { max: 5 } });
    expect(errors['badge.nameEn']).toEqual({ key: 'form.tooLong', values: { max: 17 } });
  });
  it('checks transfers and invoices', () => {
    expect(fieldErrors({ payment: { type: 'USD', lastFiveDigits: '1234' } }, OrderPaymentUpdate)).toMatchObject({
      'payment.lastFiveDigits': { key: 'form.lastFive' },
    });
    expect(fieldErrors({ payment: { type: 'USD', lastFiveDigits: '12345' } }, OrderPaymentUpdate)).toMatchObject({
      'payment.remitter': { key: 'form.required' },
      'payment.senderBank': { key: 'form.required' },
    });
    expect(
      fieldErrors(
        { receipt: { kind: 'company', invoiceTitle: 'ACME', unifiedBusinessNumber: '12345678' } },
        OrderPaymentUpdate,
      ),
    ).toMatchObject({
      'receipt.unifiedBusinessNumber': { key: 'form.ubn' },
    });
    expect(
      fieldErrors({ payment: { type: 'credit_card' }, receipt: { kind: 'personal' } }, OrderPaymentUpdate),
    ).toEqual({});
  });
});

describe('stillFailing', () => {
  it('drops errors whose field became valid, keeps the rest, adds none', () => {
    const shown = { a: 'Required', b: 'Too long' };
    expect(stillFailing(shown, { a: 'Required', b: undefined, c: 'New' })).toEqual({ a: 'Required' });
    expect(stillFailing(shown, { a: 'Required', b: 'Too long' })).toBeNull();
    expect(stillFailing(shown, { a: 'Other', b: 'Too long' })).toEqual({ a: 'Other', b: 'Too long' });
  });
});
