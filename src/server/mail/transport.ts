/**
 * Where e-mails go (decision 012): an SMTP server through nodemailer when SMTP_URL is set; by
 * default the database outbox itself, which the dev mailbox shows (a delivered mail simply stays
 * in the `emails` table).
 */
import { createTransport } from 'nodemailer';
import type { MailLocale } from './render';

/** A file sent with a mail (a calendar file): its name, type and content (base64). */
export type MailAttachment = { filename: string; contentType: string; content: string };

/** A queued mail, as the transport needs it. */
export type OutgoingMail = {
  recipient: string;
  subject: string;
  text: string;
  html: string;
  messageId: string;
  locale: MailLocale;
  attachments?: MailAttachment[] | null;
};

export interface MailTransport {
  readonly kind: 'smtp' | 'outbox';
  /** Delivers the mail or throws (the worker retries it later). */
  send(mail: OutgoingMail): Promise<void>;
  close(): void;
}

/** The database outbox: the row is the mailbox, there is nothing more to do. */
export function outboxTransport(): MailTransport {
  return { kind: 'outbox', send: async () => {}, close: () => {} };
}

export type SmtpOptions = {
  /** smtp://user:password@host:587 (STARTTLS when offered) or smtps://…:465. */
  url: string;
  /** `addr` or `Name <addr>`. */
  from: string;
  /** Connection, greeting and socket timeouts, in milliseconds. */
  timeoutMs?: number;
  /** Test servers with self-signed certificates. */
  tls?: { rejectUnauthorized: boolean };
};

/** An SMTP server through nodemailer: one connection per mail (the worker sends one at a time). */
export function smtpTransport(options: SmtpOptions): MailTransport {
  const timeout = options.timeoutMs ?? 30_000;
  const transporter = createTransport({
    url: options.url,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    ...(options.tls ? { tls: options.tls } : {}),
  });
  return {
    kind: 'smtp',
    async send(mail) {
      await transporter.sendMail({
        from: options.from,
        to: mail.recipient,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        messageId: mail.messageId,
        ...(mail.attachments?.length
          ? {
              attachments: mail.attachments.map((a) => ({
                filename: a.filename,
                contentType: a.contentType,
                content: Buffer.from(a.content, 'base64'),
              })),
            }
          : {}),
        headers: {
          // An automatic message: no out-of-office replies (RFC 3834, and Exchange's own header).
          'Auto-Submitted': 'auto-generated',
          'X-Auto-Response-Suppress': 'All',
          'Content-Language': mail.locale ?? 'en, zh-TW',
        },
      });
    },
    close: () => transporter.close(),
  };
}
