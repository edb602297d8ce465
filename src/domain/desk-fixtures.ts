import type { DeskBadge } from './desk';

/** A badge as the desk's tests need one: not picked up, no photo, nothing refused (test-only). */
export const deskBadge = (id: string, over: Partial<DeskBadge> = {}): DeskBadge => ({
  id,
  codeHash: 'h',
  identity: 'VIP',
  nameZh: '王小明',
  nameEn: `Badge ${id}`,
  companyNameZh: '',
  companyNameEn: '',
  email: `${id}@example.com`,
  name: null,
  orderNo: `TC${id}`,
  photoUrl: null,
  refusal: null,
  pickedUpAt: null,
  pickedUpBy: null,
  pickedUpDesk: null,
  ...over,
});
