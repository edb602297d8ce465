/**
 * The words of the portal's e-mails and of the dev mailbox, in both languages. They live beside
 * the server (which may not import the pages' i18n files, decision 008) and follow the same rules:
 * the same keys and placeholders in both languages, the spec's and the glossary's wording, zh-TW
 * with full-width punctuation and a space between Han and Latin letters or digits (checked by
 * messages.test.ts, as src/i18n/messages.test.ts checks the pages' messages).
 */
import type { Locale } from '@i18n/locales';

const en = {
  'brand.name': 'TCCF',
  'brand.tagline': 'Taiwan Creative Content Fest',
  'brand.line': 'TCCF · Taiwan Creative Content Fest',
  'brand.registration': 'TCCF Registration',
  'footer.automatic': 'This e-mail was sent automatically by TCCF Registration. Replies to it are not read.',
  'footer.contact': 'Questions? Write to service@taicca.tw.',
  'footer.organiser': 'Organised by the Taiwan Creative Content Agency',
  'footer.why': 'This e-mail was sent to {{email}}.',
  'link.fallback': 'If the button does not work, open this address:',

  'fact.orderNo': 'Order number',
  'fact.item': 'Item',
  'fact.amount': 'Amount',
  'fact.method': 'Payment method',
  'fact.paidAt': 'Paid on',
  'fact.deadline': 'Pay by',
  'fact.invoiceTitle': 'Invoice title',
  'fact.ubn': 'Unified business number',
  'fact.lastFive': 'Last five digits of the account',
  'fact.remitter': 'Remitter name',
  'fact.when': 'When',
  'fact.where': 'Where',
  'fact.reason': 'Reason',
  'fact.badgeType': 'Badge type',
  'fact.badgeName': 'Name on the badge',
  'fact.validUntil': 'Valid until',
  'method.credit_card': 'Credit card',
  'method.atm': 'ATM transfer',
  'method.TWD': 'TWD remittance',
  'method.USD': 'USD remittance',
  'identity.PROFESSIONAL': 'Professional',
  'identity.VIP': 'VIP',
  'identity.EXHIBITOR_PITCHING': 'Exhibitor (Pitching)',
  'identity.EXHIBITOR_MARKET': 'Exhibitor (Market)',
  'identity.EXHIBITOR_INNOVATIONS': 'Exhibitor (Innovations)',
  'button.pay': 'Pay now',
  'button.order': 'View your order',
  'button.registration': 'View your registration',
  'button.badge': 'Open My badge',
  'button.registerAgain': 'Register again',
  'button.getBadge': 'Get your badge',

  'placed.pay.subject': 'Order {{orderNo}} received: please pay by {{deadline}}',
  'placed.pay.heading': 'Thank you, your order has been placed',
  'placed.pay.body': 'To complete it, please pay {{amount}} by {{deadline}}, by credit card or bank transfer.',
  'placed.pay.lapse': 'If it is not paid by then, the order lapses and you would need to register again.',
  'placed.approval.subject': 'Registration {{orderNo}} received: waiting for approval',
  'placed.approval.heading': 'Your registration is waiting for approval',
  'placed.approval.body':
    'The organiser reviews every registration for {{item}}. We will e-mail you as soon as it has been decided.',
  'placed.confirmed.subject': 'You are registered: {{item}}',
  'placed.confirmed.heading': 'You are registered',
  'placed.confirmed.body': 'Your registration for {{item}} is confirmed. We look forward to seeing you.',

  'transfer.subject': 'We are checking your transfer for order {{orderNo}}',
  'transfer.heading': 'Your transfer is being checked',
  'transfer.body':
    'Thank you. We have your transfer details and are matching them with our bank account, which usually takes a few working days. We will e-mail you a receipt once it is confirmed.',
  'transfer.correct': 'If a detail is wrong, you can correct it on your order page until it is confirmed.',

  'paid.subject': 'Receipt for order {{orderNo}}',
  'paid.heading': 'Payment received',
  'paid.body': 'Thank you for your payment. This is your receipt.',

  'badge.subject': 'Your TCCF badge is ready',
  'badge.heading': 'Your badge is ready',
  'badge.body':
    'Your {{identity}} badge has been issued. Open My badge to see its QR code, and show the QR code (on your phone or printed) at the badge exchange desk to pick up your badge.',
  'badge.pickup': 'Pick-up times and places',
  'badge.slot': '{{days}}, {{hours}}: {{place}}',

  'approved.pay.subject': 'Approved: please pay for order {{orderNo}} by {{deadline}}',
  'approved.pay.heading': 'Your registration has been approved',
  'approved.pay.body': 'Please pay {{amount}} by {{deadline}} to complete your registration for {{item}}.',
  'approved.confirmed.subject': 'Approved: {{item}}',
  'approved.confirmed.heading': 'Your registration has been approved',
  'approved.confirmed.body': 'Your registration for {{item}} has been approved. See you there!',

  'rejected.subject': 'Your registration {{orderNo}} was not approved',
  'rejected.heading': 'Your registration was not approved',
  'rejected.body': 'We are sorry: the organiser did not approve your registration for {{item}}.',

  'reminder.subject': 'Reminder: please pay for order {{orderNo}} by {{deadline}}',
  'reminder.heading': 'Your order is waiting for payment',
  'reminder.body': 'Order {{orderNo}} is not paid yet. Please pay {{amount}} by {{deadline}}; after that it lapses.',
  'reminder.transfer':
    'Already paid by bank transfer? Enter the transfer details on the payment page, so that we can match it.',

  'expired.subject': 'Order {{orderNo}} has lapsed',
  'expired.heading': 'Your order has lapsed',
  'expired.body':
    'Order {{orderNo}} was not paid by its deadline ({{deadline}}), so it has been canceled. You can register again while registration is open.',

  'link.subject': 'Your free TCCF badge ({{identity}})',
  'link.heading': 'Get your free TCCF badge',
  'link.body':
    'You are invited to get a free {{identity}} badge for the Taiwan Creative Content Fest. Open the link below, sign in with this e-mail address ({{email}}) and fill in the badge form.',
  'link.once': 'The link works once: after you have used it, it is refused.',

  'included.subject': 'Your {{count}} exhibitor badge links for {{item}}',
  'included.subject_one': 'Your exhibitor badge link for {{item}}',
  'included.heading': 'Your included badges',
  'included.body':
    'Your registration for {{item}} includes {{count}} {{identity}} badges. Send each link below to one person: they open it, sign in with their own account and fill in their badge form.',
  'included.body_one':
    'Your registration for {{item}} includes one {{identity}} badge. Send the link below to the person who will use it: they open it, sign in with their own account and fill in their badge form.',
  'included.linksHeading': 'Badge links',
  'included.link': 'Badge {{n}}',
  'included.once': 'Each link works once. Your registration page shows which links have been used, and by whom.',

  'mailbox.title': 'Dev mailbox',
  'mailbox.banner':
    'Development mailbox: SMTP_URL is not set, so the portal keeps its e-mails here instead of sending them. Never use this setup for a live site.',
  'mailbox.count': 'E-mails shown: {{count}}',
  'mailbox.filter': 'Recipient',
  'mailbox.filterHint': 'Show only the e-mails to this address.',
  'mailbox.apply': 'Filter',
  'mailbox.showAll': 'Show all e-mails',
  'mailbox.empty': 'No e-mails yet.',
  'mailbox.caption': 'E-mails, newest first',
  'mailbox.col.date': 'Queued',
  'mailbox.col.to': 'To',
  'mailbox.col.subject': 'Subject',
  'mailbox.col.language': 'Language',
  'mailbox.col.status': 'Status',
  'mailbox.status.sent': 'Delivered',
  'mailbox.status.pending': 'Waiting to be sent',
  'mailbox.lang.en': 'English',
  'mailbox.lang.zh-TW': 'Chinese',
  'mailbox.lang.both': 'English and Chinese',
  'mailbox.switch': '中文',
  'mailbox.back': 'Back to the mailbox',
  'mailbox.from': 'From',
  'mailbox.to': 'To',
  'mailbox.subject': 'Subject',
  'mailbox.date': 'Queued',
  'mailbox.sentAt': 'Delivered',
  'mailbox.template': 'Template',
  'mailbox.messageId': 'Message-ID',
  'mailbox.attempts': 'Attempts',
  'mailbox.lastError': 'Last error',
  'mailbox.html': 'HTML version',
  'mailbox.frameTitle': 'HTML version of the e-mail: {{subject}}',
  'mailbox.text': 'Plain-text version',
  'mailbox.notFound': 'E-mail not found.',

  'returned.subject': 'Order {{orderNo}}: please check your transfer',
  'returned.heading': 'We could not confirm your transfer',
  'returned.body': 'The organiser could not confirm the transfer you declared for {{item}}, and writes:',
  'returned.pay':
    'Please correct the transfer details, or pay by card or transfer, by {{deadline}} on the payment page. Until then your registration is kept.',
  'button.payAgain': 'Correct or pay again',
} as const;

export type MessageKey = keyof typeof en;

const zhTW: Record<MessageKey, string> = {
  'brand.name': 'TCCF',
  'brand.tagline': '創意內容大會',
  'brand.line': 'TCCF 創意內容大會',
  'brand.registration': 'TCCF 報名系統',
  'footer.automatic': '此郵件由 TCCF 報名系統自動寄出，請勿直接回覆。',
  'footer.contact': '如有疑問，請來信 service@taicca.tw。',
  'footer.organiser': '主辦單位：文化內容策進院',
  'footer.why': '此郵件寄至 {{email}}。',
  'link.fallback': '若按鈕無法使用，請開啟以下網址：',

  'fact.orderNo': '訂單編號',
  'fact.item': '項目',
  'fact.amount': '金額',
  'fact.method': '付款方式',
  'fact.paidAt': '付款時間',
  'fact.deadline': '付款期限',
  'fact.invoiceTitle': '發票抬頭',
  'fact.ubn': '統一編號',
  'fact.lastFive': '帳號末五碼',
  'fact.remitter': '匯款人姓名',
  'fact.when': '時間',
  'fact.where': '地點',
  'fact.reason': '原因',
  'fact.badgeType': '識別證類型',
  'fact.badgeName': '識別證姓名',
  'fact.validUntil': '有效期限',
  'method.credit_card': '信用卡',
  'method.atm': 'ATM 轉帳',
  'method.TWD': '新臺幣匯款',
  'method.USD': '美元匯款',
  'identity.PROFESSIONAL': '專業人士',
  'identity.VIP': '貴賓',
  'identity.EXHIBITOR_PITCHING': '展商（提案大會）',
  'identity.EXHIBITOR_MARKET': '展商（市場展）',
  'identity.EXHIBITOR_INNOVATIONS': '展商（創新科技）',
  'button.pay': '前往付款',
  'button.order': '查看訂單',
  'button.registration': '查看報名內容',
  'button.badge': '開啟我的識別證',
  'button.registerAgain': '重新報名',
  'button.getBadge': '領取識別證',

  'placed.pay.subject': '已收到訂單 {{orderNo}}，請於 {{deadline}} 前付款',
  'placed.pay.heading': '感謝您，訂單已成立',
  'placed.pay.body': '請於 {{deadline}} 前以信用卡或銀行轉帳付款 {{amount}}，即可完成報名。',
  'placed.pay.lapse': '逾期未付款，訂單將失效，須重新報名。',
  'placed.approval.subject': '已收到報名 {{orderNo}}，等待審核中',
  'placed.approval.heading': '您的報名正在等待審核',
  'placed.approval.body': '「{{item}}」的每筆報名皆須經主辦單位審核，審核結果將以電子郵件通知您。',
  'placed.confirmed.subject': '報名成功：{{item}}',
  'placed.confirmed.heading': '您已完成報名',
  'placed.confirmed.body': '您已完成「{{item}}」的報名，期待與您相見。',

  'transfer.subject': '正在核對訂單 {{orderNo}} 的轉帳',
  'transfer.heading': '正在核對您的轉帳',
  'transfer.body':
    '感謝您提供轉帳資料。我們正在與銀行帳戶核對，通常需要數個工作天；確認入帳後，將以電子郵件寄送收據給您。',
  'transfer.correct': '如資料有誤，在確認入帳前都可於訂單頁面修改。',

  'paid.subject': '訂單 {{orderNo}} 付款收據',
  'paid.heading': '已收到您的付款',
  'paid.body': '感謝您的付款，以下是您的收據。',

  'badge.subject': '您的 TCCF 識別證已開通',
  'badge.heading': '您的識別證已開通',
  'badge.body':
    '您的{{identity}}識別證已開通。請開啟「我的識別證」查看 QR Code，並於換證處出示手機畫面或列印本，即可領取識別證。',
  'badge.pickup': '領取時間與地點',
  'badge.slot': '{{days}} {{hours}}：{{place}}',

  'approved.pay.subject': '審核通過：請於 {{deadline}} 前完成訂單 {{orderNo}} 付款',
  'approved.pay.heading': '您的報名已通過審核',
  'approved.pay.body': '請於 {{deadline}} 前付款 {{amount}}，即可完成「{{item}}」的報名。',
  'approved.confirmed.subject': '審核通過：{{item}}',
  'approved.confirmed.heading': '您的報名已通過審核',
  'approved.confirmed.body': '您的「{{item}}」報名已通過審核，期待與您相見！',

  'rejected.subject': '您的報名 {{orderNo}} 未通過審核',
  'rejected.heading': '您的報名未通過審核',
  'rejected.body': '很抱歉，您的「{{item}}」報名未通過主辦單位審核。',

  'reminder.subject': '付款提醒：請於 {{deadline}} 前完成訂單 {{orderNo}} 付款',
  'reminder.heading': '您的訂單尚未付款',
  'reminder.body': '訂單 {{orderNo}} 尚未付款。請於 {{deadline}} 前付款 {{amount}}，逾期訂單將失效。',
  'reminder.transfer': '若已完成銀行轉帳，請於付款頁面填寫轉帳資料，以便我們核對。',

  'expired.subject': '訂單 {{orderNo}} 已逾期',
  'expired.heading': '您的訂單已逾期',
  'expired.body': '訂單 {{orderNo}} 未於付款期限（{{deadline}}）前完成付款，已自動取消。報名期間內，您可以重新報名。',

  'link.subject': '您的 TCCF 免費識別證（{{identity}}）',
  'link.heading': '領取您的 TCCF 免費識別證',
  'link.body':
    '誠摯邀請您領取 TCCF 創意內容大會的{{identity}}免費識別證。請開啟下方連結，以此電子郵件（{{email}}）登入後填寫識別證資料。',
  'link.once': '此連結僅能使用一次，使用後即失效。',

  'included.subject': '{{item}}：您的 {{count}} 張展商識別證連結',
  'included.subject_one': '{{item}}：您的展商識別證連結',
  'included.heading': '您的附贈識別證',
  'included.body':
    '您的「{{item}}」報名附贈 {{count}} 張「{{identity}}」識別證。請將下方每個連結分別寄給一位使用者：對方開啟連結、以自己的帳號登入並填寫識別證資料。',
  'included.body_one':
    '您的「{{item}}」報名附贈 1 張「{{identity}}」識別證。請將下方連結寄給使用者：對方開啟連結、以自己的帳號登入並填寫識別證資料。',
  'included.linksHeading': '識別證連結',
  'included.link': '識別證 {{n}}',
  'included.once': '每個連結僅能使用一次。您的報名頁面會顯示哪些連結已被使用，以及使用者是誰。',

  'mailbox.title': '開發用信箱',
  'mailbox.banner': '開發用信箱：因未設定 SMTP_URL，系統的電子郵件不會寄出，而是保留在此。正式網站切勿使用此設定。',
  'mailbox.count': '顯示郵件數：{{count}}',
  'mailbox.filter': '收件人',
  'mailbox.filterHint': '只顯示寄給此地址的郵件。',
  'mailbox.apply': '篩選',
  'mailbox.showAll': '顯示全部郵件',
  'mailbox.empty': '目前沒有郵件。',
  'mailbox.caption': '郵件（由新到舊）',
  'mailbox.col.date': '建立時間',
  'mailbox.col.to': '收件人',
  'mailbox.col.subject': '主旨',
  'mailbox.col.language': '語言',
  'mailbox.col.status': '狀態',
  'mailbox.status.sent': '已送達',
  'mailbox.status.pending': '等待寄送',
  'mailbox.lang.en': '英文',
  'mailbox.lang.zh-TW': '中文',
  'mailbox.lang.both': '中英文',
  'mailbox.switch': 'English',
  'mailbox.back': '返回信箱',
  'mailbox.from': '寄件人',
  'mailbox.to': '收件人',
  'mailbox.subject': '主旨',
  'mailbox.date': '建立時間',
  'mailbox.sentAt': '送達時間',
  'mailbox.template': '範本',
  'mailbox.messageId': 'Message-ID',
  'mailbox.attempts': '嘗試次數',
  'mailbox.lastError': '最近錯誤',
  'mailbox.html': 'HTML 版本',
  'mailbox.frameTitle': '郵件的 HTML 版本：{{subject}}',
  'mailbox.text': '純文字版本',
  'mailbox.notFound': '找不到此郵件。',

  'returned.subject': '訂單 {{orderNo}}：請確認您的轉帳資料',
  'returned.heading': '我們無法確認您的轉帳',
  'returned.body': '主辦單位無法確認您為「{{item}}」申報的轉帳，並留言如下：',
  'returned.pay': '請於 {{deadline}} 前至付款頁面修正轉帳資料，或以信用卡或轉帳重新付款；在此之前，您的報名仍會保留。',
  'button.payAgain': '修正資料或重新付款',
};

export const MAIL_MESSAGES: Record<Locale, Record<MessageKey, string>> = { en, 'zh-TW': zhTW };

/**
 * The message `key` in `locale`, with `{{name}}` placeholders filled in; for `count` 1 the
 * `{key}_one` form when there is one (English plurals; Chinese has the same text in both).
 */
export function mt(locale: Locale, key: MessageKey, values: Record<string, string | number> = {}): string {
  const messages = MAIL_MESSAGES[locale];
  const one = values.count === 1 ? messages[`${key}_one` as MessageKey] : undefined;
  return (one ?? messages[key]).replace(/\{\{(\w+)\}\}/g, (_, name: string) =>
    name in values ? String(values[name]) : `{{${name}}}`,
  );
}
