import { describe, expect, it } from 'vitest';
import { check } from '@domain/validation';
import { registrationFormEditable } from '@domain/orders';
import { ContactInfo, ExhibitorForm, MarketRegistration, marketRegistrationType, splitExhibitorForm } from './market';
import { kindOf } from './index';
import { afterApproval, approvalGate } from './pages';

const contact = { nameZh: '王', nameEn: 'Wang', phone: '886-912-345-678', email: 'w@example.com' };
const form = {
  companyNameZh: '公司',
  companyNameEn: 'Company',
  companyIndustry: '3',
  companyBusinessCategory: ['1', 2],
  companyCountry: 'TWN',
  copyrightContacts: [contact],
  contactName: 'Amy',
  contactTitle: 'Producer',
  contactPhone: '02-1234-5678',
  contactEmail: 'amy@example.com',
};

describe('Market exhibitor form', () => {
  it('takes numbers or their strings for industry and categories, and defaults the optional fields', () => {
    const result = check(form, ExhibitorForm);
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({ companyIndustry: 3, companyBusinessCategory: [1, 2], companyProfileZh: '' });
  });
  it('refuses a fourth business category, a repeated one, an unknown industry and a bad e-mail', () => {
    const paths = (over: object) => {
      const r = check({ ...form, ...over }, ExhibitorForm);
      return r.ok ? [] : [...new Set(r.issues.map((i) => i.path))];
    };
    expect(paths({ companyBusinessCategory: [1, 2, 3, 4] })).toEqual(['companyBusinessCategory']);
    expect(paths({ companyBusinessCategory: [1, 1] })).toEqual(['companyBusinessCategory']);
    expect(paths({ companyIndustry: 9 })).toEqual(['companyIndustry']);
    expect(paths({ copyrightContacts: [{ ...contact, email: 'nope' }] })).toEqual(['copyrightContacts.0.email']);
    expect(paths({ copyrightContacts: [] })).toEqual(['copyrightContacts']);
    expect(paths({ companyProfileZh: '字'.repeat(81) })).toEqual(['companyProfileZh']);
    expect(paths({ contactEmail: '' })).toEqual(['contactEmail']);
  });
  it('a registration needs both agreements, a participation type and at least one work', () => {
    const base = { ...form, agreeTerms: true, agreeDisclosure: true, marketIdentity: 5, selectedContents: [1, '2'] };
    expect(check(base, MarketRegistration).ok).toBe(true);
    for (const over of [
      { agreeDisclosure: false },
      { marketIdentity: 6 },
      { selectedContents: [] },
      { selectedContents: ['x'] },
    ])
      expect(check({ ...base, ...over }, MarketRegistration).ok, JSON.stringify(over)).toBe(false);
  });
  it('splits the contact info from the form', () => {
    const r = check(form, ExhibitorForm);
    if (!r.ok) throw new Error('invalid');
    const { form: stored, contact: info } = splitExhibitorForm(r.value);
    expect(stored).not.toHaveProperty('contactName');
    expect(check(info, ContactInfo).ok).toBe(true);
  });
});

describe('participation and registration types', () => {
  it('online offers only type 5; early-bird 1–4', () => {
    expect(kindOf('market_online').market?.participationTypes).toEqual([5]);
    expect(kindOf('market_earlybird').market?.participationTypes).toEqual([1, 2, 3, 4]);
  });
  it('3 and 4 register as domestic / international only where the event offers them', () => {
    expect(marketRegistrationType('MARKET_EARLYBIRD', null, 3)).toBe('MARKET_EARLYBIRD');
    expect(marketRegistrationType('MARKET_EARLYBIRD', ['MARKET_DOMESTIC'], 3)).toBe('MARKET_DOMESTIC');
    expect(marketRegistrationType('MARKET_EARLYBIRD', ['MARKET_DOMESTIC'], 4)).toBe('MARKET_EARLYBIRD');
    expect(marketRegistrationType('MARKET_EARLYBIRD', ['MARKET_INTERNATIONAL'], 4)).toBe('MARKET_INTERNATIONAL');
    expect(marketRegistrationType('MARKET_ONLINE', null, 5)).toBe('MARKET_ONLINE');
  });
});

describe('approval before payment and form editing', () => {
  const order = {
    orderId: 'o1',
    eventSlug: 'm',
    registrationType: 'MARKET_ONLINE',
    approvalStatus: 'pending_approval',
  };
  it('Market online waits on its pending page until approved; other kinds never', () => {
    expect(approvalGate(order)).toBe('/events/m/registrations/o1/pending');
    expect(approvalGate({ ...order, approvalStatus: 'rejected' })).toBe('/events/m/registrations/o1/pending');
    expect(approvalGate({ ...order, approvalStatus: 'approved' })).toBeUndefined();
    expect(approvalGate({ ...order, registrationType: 'EVENT_AUDIT' })).toBeUndefined();
    expect(kindOf('market_online').pendingPage).toBe(true);
  });
  it('once approved: a charged unpaid order goes to pay, anything else to the summary', () => {
    const approved = { ...order, approvalStatus: 'approved', paymentStatus: 'pending', amountCents: 600_000 };
    expect(afterApproval(approved)).toBe('/events/m/registrations/o1/pay');
    expect(afterApproval({ ...approved, amountCents: 0, paymentStatus: 'free' })).toBe('/events/m/registrations/o1');
    expect(afterApproval({ ...approved, paymentStatus: 'paid' })).toBe('/events/m/registrations/o1');
  });
  it('the form can be edited while the order is live and not rejected, before formModifyExpiresAt', () => {
    const now = new Date('2026-11-23T00:00:00Z');
    const o = { paymentStatus: 'paid' as const, approvalStatus: null, formModifyExpiresAt: '2026-11-30T00:00:00Z' };
    expect(registrationFormEditable(o, now)).toBe(true);
    expect(registrationFormEditable({ ...o, formModifyExpiresAt: '2026-11-22T00:00:00Z' }, now)).toBe(false);
    expect(registrationFormEditable({ ...o, formModifyExpiresAt: null }, now)).toBe(true);
    expect(registrationFormEditable({ ...o, paymentStatus: 'canceled' }, now)).toBe(false);
    expect(registrationFormEditable({ ...o, approvalStatus: 'rejected' as const }, now)).toBe(false);
  });
});
