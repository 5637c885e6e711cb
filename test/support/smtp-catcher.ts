import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

/**
 * A real SMTP server (nodemailer's smtp-server) on 127.0.0.1, random port,
 * that keeps every message it accepts. Modes:
 * - no `auth`: authOptional and AUTH not advertised (an open relay such as a
 *   local Postfix);
 * - `auth`: AUTH with the given methods, credentials checked;
 * - `auth` with `optional: true`: AUTH advertised and checked when tried, but
 *   mail accepted without it (many relays on 587, development catchers);
 * - `tls: 'implicit'`: smtps; `tls: 'starttls'`: plain, upgraded with STARTTLS.
 */
export interface CaughtMail {
  envelopeFrom: string;
  envelopeTo: string[];
  user: string | undefined;
  secure: boolean;
  raw: string;
}

export interface SmtpCatcherOptions {
  auth?: { username: string; password: string; methods?: ('PLAIN' | 'LOGIN')[]; optional?: boolean };
  tls?: 'implicit' | 'starttls';
}

export interface SmtpCatcher {
  port: number;
  messages: CaughtMail[];
  authAttempts: { method: string; ok: boolean }[];
  stop(): Promise<void>;
}

export async function startSmtpCatcher(options: SmtpCatcherOptions = {}): Promise<SmtpCatcher> {
  const messages: CaughtMail[] = [];
  const authAttempts: SmtpCatcher['authAttempts'] = [];
  const disabled = options.tls === 'starttls' ? [] : ['STARTTLS'];
  const config: SMTPServerOptions = {
    logger: false,
    closeTimeout: 200,
    secure: options.tls === 'implicit',
    disabledCommands: options.auth ? disabled : [...disabled, 'AUTH'],
    authOptional: !options.auth || options.auth.optional === true,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        messages.push({
          envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          envelopeTo: session.envelope.rcptTo.map((r) => r.address),
          user: typeof session.user === 'string' ? session.user : undefined,
          secure: session.secure,
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  };
  if (options.tls) Object.assign(config, { key: TEST_TLS_KEY, cert: TEST_TLS_CERT });
  if (options.auth) {
    const expected = options.auth;
    config.authMethods = expected.methods ?? ['PLAIN', 'LOGIN'];
    config.onAuth = (auth, _session, callback) => {
      const ok = auth.username === expected.username && auth.password === expected.password;
      authAttempts.push({ method: auth.method, ok });
      if (ok) callback(null, { user: auth.username });
      else callback(new Error('Invalid username or password'));
    };
  }
  const server = new SMTPServer(config);
  server.on('error', () => undefined);
  await new Promise<void>((resolve, reject) => {
    server.server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.server.address() as AddressInfo;
  return {
    port,
    messages,
    authAttempts,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface ParsedPart {
  headers: Map<string, string>;
  body: string;
}

/**
 * Just enough MIME to check what worker-mailer sends: headers (unfolded,
 * lower-cased names), nested multiparts flattened to leaf parts, and
 * quoted-printable / base64 bodies decoded as UTF-8.
 */
export function parseMail(raw: string): { headers: Map<string, string>; parts: ParsedPart[] } {
  const top = splitHeaders(raw);
  return { headers: top.headers, parts: leaves(top) };
}

function splitHeaders(text: string): ParsedPart {
  const end = text.indexOf('\r\n\r\n');
  const head = end === -1 ? text : text.slice(0, end);
  const body = end === -1 ? '' : text.slice(end + 4);
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, ' ').split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return { headers, body };
}

function leaves(part: ParsedPart): ParsedPart[] {
  const type = part.headers.get('content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (!type.toLowerCase().startsWith('multipart/') || !boundary) {
    return [{ headers: part.headers, body: decodeBody(part.body, part.headers.get('content-transfer-encoding')) }];
  }
  const sections = part.body.split(`--${boundary}`).slice(1);
  return sections
    .filter((s) => !s.startsWith('--'))
    .flatMap((s) => leaves(splitHeaders(s.replace(/^\r\n/, '').replace(/\r\n$/, ''))));
}

/** Decodes RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`) in a header value. */
export function decodeHeader(value: string): string {
  return value.replace(/=\?UTF-8\?([QB])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
    kind.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : decodeBody(text.replace(/_/g, ' '), 'quoted-printable'),
  );
}

function decodeBody(body: string, encoding: string | undefined): string {
  const kind = (encoding ?? '').toLowerCase();
  if (kind === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (kind !== 'quoted-printable') return body;
  const bytes: number[] = [];
  const soft = body.replace(/=\r\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft.slice(i + 1, i + 3);
    if (soft[i] === '=' && /^[0-9A-F]{2}$/i.test(hex)) {
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(soft[i] ?? '', 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/**
 * A self-signed certificate for localhost / 127.0.0.1, valid until 2126, made
 * for these tests only (the key is public: never trust it outside a test).
 * Tests add it to Node's trusted CAs with tls.setDefaultCACertificates.
 */
export const TEST_TLS_CERT = `-----BEGIN CERTIFICATE-----
MIIBwjCCAWigAwIBAgIUP7Z7kMqTgX8H558Q7G+xJZtbtfAwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJbG9jYWxob3N0MCAXDTI2MTEyNTIyNTEyOFoYDzIxMjYxMTAx
MjI1MTI4WjAUMRIwEAYDVQQDDAlsb2NhbGhvc3QwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARIoisJ6dyOuub8HvJz4bVesouAnZd9dmGhgYdtHoYKItcstESkXprg
VsSoWnpU9SWA+nTTqN235p7YcJhQ7e2/o4GVMIGSMB0GA1UdDgQWBBRDSJG67bNx
SQvH2vW3mgbOcUmmYDAfBgNVHSMEGDAWgBRDSJG67bNxSQvH2vW3mgbOcUmmYDAa
BgNVHREEEzARgglsb2NhbGhvc3SHBH8AAAEwDwYDVR0TAQH/BAUwAwEB/zAOBgNV
HQ8BAf8EBAMCAoQwEwYDVR0lBAwwCgYIKwYBBQUHAwEwCgYIKoZIzj0EAwIDSAAw
RQIgVCpFp+dgcUDs9mCmF1po22qHy6gXyphEQ3o1MgVA6nUCIQCf4DBLioCpenqk
48CwseNXtg3mUU5XStBwvTB5ObbYTQ==
-----END CERTIFICATE-----
`;

export const TEST_TLS_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgn5rd9pgRf5uxiG7L
1lyO82qnPztZ4l8UTw7NPloS0tihRANCAARIoisJ6dyOuub8HvJz4bVesouAnZd9
dmGhgYdtHoYKItcstESkXprgVsSoWnpU9SWA+nTTqN235p7YcJhQ7e2/
-----END PRIVATE KEY-----
`;
