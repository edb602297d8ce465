import type { AddressInfo } from 'node:net';
import { simpleParser, type ParsedMail } from 'mailparser';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { emails } from '@server/db/schema';
import { seed } from '@server/db/seed';
import { mailSettings } from '@server/mail/outbox';
import { smtpTransport } from '@server/mail/transport';
import { mailPass } from '@server/jobs/worker';
import { retryDelayMs } from '@server/orders/order-events';
import { application, json, uploadPhoto } from './fixtures';
import { createTestApp, DATABASES, openTestDatabase, signIn, type TestApp, type TestDatabase } from './helpers';

const FROM = 'TCCF Registration <registration@example.org>';

/** A real SMTP server (the npm package smtp-server) on a free local port, keeping what it receives. */
async function startSmtp(options: Partial<SMTPServerOptions> = {}) {
  const received: { envelope: { from: string; to: string[] }; raw: string; parsed: ParsedMail }[] = [];
  let reject = 0;
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS'],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        if (reject > 0) {
          reject--;
          const error = Object.assign(new Error('Mailbox busy, try again later'), { responseCode: 451 });
          return callback(error);
        }
        const raw = Buffer.concat(chunks).toString('utf8');
        void simpleParser(raw).then((parsed) => {
          received.push({
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            raw,
            parsed,
          });
          callback();
        }, callback);
      });
    },
    ...options,
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    rejectNext: (n: number) => {
      reject = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The outbox through nodemailer to a real SMTP server: both parts, the headers, retries. */
describe.each(DATABASES)('mail over SMTP (%s)', (kind) => {
  let database: TestDatabase;
  let app: TestApp;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;

  beforeAll(async () => {
    database = await openTestDatabase(kind);
  });
  afterAll(() => database.close());
  beforeEach(async () => {
    await database.reset();
    await seed(database.db);
    smtp = await startSmtp();
    app = await createTestApp(database, { SMTP_URL: `smtp://127.0.0.1:${smtp.port}`, MAIL_FROM: FROM });
  });
  afterEach(() => smtp.close());

  async function placeOrder(email: string, lang?: string) {
    const { token } = await signIn(app, email);
    const photo = await uploadPhoto(app, token);
    const init = json(token, 'POST', application(photo));
    if (lang) (init.headers as Record<string, string>)['accept-language'] = lang;
    const res = await app.request('/api/v1/demonstration_order', init);
    expect(res.status).toBe(201);
    return (await res.json()) as { order_id: string; order_no: string };
  }
  const passWith = (transport: ReturnType<typeof smtpTransport>, at: Date) =>
    mailPass({ db: database.db, transport, settings: mailSettings(app.config), log: () => {}, now: () => at });

  it('sends a multipart/alternative mail: plain text and HTML, the sender, the Message-ID and the automatic-mail headers', async () => {
    const order = await placeOrder('amy@example.com', 'zh-TW');
    const transport = smtpTransport({ url: app.config.SMTP_URL!, from: app.config.MAIL_FROM });
    expect(await passWith(transport, new Date())).toMatchObject({ sent: 1, failed: 0 });
    transport.close();

    expect(smtp.received).toHaveLength(1);
    const [{ envelope, raw, parsed }] = smtp.received as [(typeof smtp.received)[number]];
    expect(envelope).toEqual({ from: 'registration@example.org', to: ['amy@example.com'] });
    expect(parsed.from?.value).toEqual([{ address: 'registration@example.org', name: 'TCCF Registration' }]);
    expect(parsed.to).toMatchObject({ value: [{ address: 'amy@example.com' }] });
    // The subject and both parts arrive intact in UTF-8 (Chinese, full-width punctuation).
    expect(parsed.subject).toMatch(new RegExp(`^已收到訂單 ${order.order_no}，請於 .+ 前付款$`));
    expect(raw).toMatch(/^Content-Type: multipart\/alternative;/im);
    expect(parsed.text).toContain(`訂單編號：${order.order_no}`);
    expect(parsed.text).toContain(`前往付款：http://portal.test/zh-tw/badges/${order.order_id}/pay`);
    expect(parsed.html).toContain('<html lang="zh-TW">');
    expect(parsed.html).toContain('#ff5e00');
    expect(parsed.html).toContain(`href="http://portal.test/zh-tw/badges/${order.order_id}/pay"`);
    const [stored] = await database.db.select().from(emails);
    expect(parsed.messageId).toBe(stored!.messageId);
    expect(stored!.messageId).toMatch(/@example\.org>$/);
    expect(parsed.headers.get('auto-submitted')).toBe('auto-generated');
    expect(parsed.headers.get('x-auto-response-suppress')).toBe('All');
    expect(parsed.headers.get('content-language')).toBe('zh-TW');
    expect(stored).toMatchObject({ status: 'sent', transport: 'smtp', attempts: 1 });
  });

  it('a mail in both languages says so in Content-Language', async () => {
    await placeOrder('ben@example.com');
    const transport = smtpTransport({ url: app.config.SMTP_URL!, from: app.config.MAIL_FROM });
    await passWith(transport, new Date());
    transport.close();
    const [{ parsed }] = smtp.received as [(typeof smtp.received)[number]];
    expect(parsed.headers.get('content-language')).toBe('en, zh-TW');
    expect(parsed.subject).toMatch(/ \/ 已收到訂單/);
    expect(parsed.text).toContain('Pay now: http://portal.test/en/badges/');
  });

  it('a temporary SMTP refusal (451) is retried after the backoff and then delivered once', async () => {
    await placeOrder('cai@example.com', 'en');
    smtp.rejectNext(1);
    const at = new Date();
    const transport = smtpTransport({ url: app.config.SMTP_URL!, from: app.config.MAIL_FROM });
    expect(await passWith(transport, at)).toMatchObject({ sent: 0, failed: 1 });
    const [pending] = await database.db.select().from(emails);
    expect(pending).toMatchObject({ status: 'pending', attempts: 1 });
    expect(pending!.lastError).toMatch(/451/);
    expect(smtp.received).toHaveLength(0);

    expect(await passWith(transport, new Date(at.getTime() + retryDelayMs(1)))).toMatchObject({ sent: 1 });
    expect(await passWith(transport, new Date(at.getTime() + retryDelayMs(3)))).toMatchObject({ sent: 0 });
    transport.close();
    expect(smtp.received).toHaveLength(1);
    expect(smtp.received[0]!.parsed.messageId).toBe(pending!.messageId);
  });

  it('a server that is down: the mail stays pending with the error, and goes out when the server is back', async () => {
    await placeOrder('dan@example.com', 'en');
    await smtp.close();
    const at = new Date();
    const down = smtpTransport({ url: app.config.SMTP_URL!, from: app.config.MAIL_FROM, timeoutMs: 2000 });
    expect(await passWith(down, at)).toMatchObject({ sent: 0, failed: 1 });
    const [pending] = await database.db.select().from(emails);
    expect(pending!.lastError).toMatch(/ECONNREFUSED|connect/i);

    smtp = await startSmtp();
    const back = smtpTransport({ url: `smtp://127.0.0.1:${smtp.port}`, from: app.config.MAIL_FROM });
    expect(await passWith(back, new Date(at.getTime() + retryDelayMs(1)))).toMatchObject({ sent: 1 });
    back.close();
    expect(smtp.received).toHaveLength(1);
  });

  it('signs in to the SMTP server with the credentials of SMTP_URL', async () => {
    await smtp.close();
    const logins: string[] = [];
    smtp = await startSmtp({
      authOptional: false,
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        logins.push(`${auth.username}:${auth.password}`);
        if (auth.username === 'mailer@example.org' && auth.password === 'p@ss:word')
          return callback(null, { user: auth.username });
        return callback(new Error('Invalid username or password'));
      },
    });
    await placeOrder('eve@example.com', 'en');
    const url = `smtp://${encodeURIComponent('mailer@example.org')}:${encodeURIComponent('p@ss:word')}@127.0.0.1:${smtp.port}`;
    const transport = smtpTransport({ url, from: FROM });
    expect(await passWith(transport, new Date())).toMatchObject({ sent: 1 });
    transport.close();
    expect(logins).toEqual(['mailer@example.org:p@ss:word']);
    expect(smtp.received).toHaveLength(1);
  });
});
