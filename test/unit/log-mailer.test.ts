import { describe, expect, it } from 'vitest';
import { createLogMailer, escapeLogText } from '../../worker/src/adapters/mail/log.mailer.js';

function capture() {
  const lines: string[] = [];
  return { lines, mailer: createLogMailer((line) => lines.push(line)) };
}

describe('log mailer', () => {
  it('writes recipient, subject and the text part, one readable line each', async () => {
    const { lines, mailer } = capture();
    await mailer.send({
      to: 'ada@example.test',
      subject: 'Verify your e-mail address',
      text: 'Hello Ada,\n\nOpen http://localhost:8787/verify?code=abc123_-XYZ to verify.\r\nThanks',
      html: '<p>never logged</p>',
    });
    expect(lines).toEqual([
      'mail to=ada@example.test subject="Verify your e-mail address"',
      'mail | Hello Ada,',
      'mail |',
      'mail | Open http://localhost:8787/verify?code=abc123_-XYZ to verify.',
      'mail | Thanks',
      'mail end',
    ]);
  });

  it('keeps a verification link intact and copyable', async () => {
    const { lines, mailer } = capture();
    const link = 'http://localhost:8787/verify?code=Zm9v%2Bbar&x=1#frag';
    await mailer.send({ to: 'a@b.test', subject: 's', text: link, html: '' });
    expect(lines.some((l) => l.endsWith(` ${link}`))).toBe(true);
  });

  it('escapes control characters so nothing can forge or rewrite a log line', async () => {
    const { lines, mailer } = capture();
    await mailer.send({
      to: 'eve@example.test\nmail end\nFAKE admin login',
      subject: 'Hi"\u001b[2J\u0000\u202e\u0085',
      text: 'line one\u001b[31m red\u0007\tTab\u2028sep',
      html: '',
    });
    expect(lines).toHaveLength(3);
    for (const line of lines) expect(line).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/u);
    expect(lines[0]).toBe(
      'mail to=eve@example.test\\x0amail end\\x0aFAKE admin login subject="Hi\\"\\x1b[2J\\x00\\u{202e}\\x85"',
    );
    expect(lines[1]).toBe('mail | line one\\x1b[31m red\\x07\\x09Tab\\u{2028}sep');
  });

  it('escapes backslashes so escapes stay unambiguous, and keeps ordinary Unicode', () => {
    expect(escapeLogText('a\\x1b')).toBe('a\\\\x1b');
    expect(escapeLogText('Grüße 👋 日本')).toBe('Grüße 👋 日本');
    expect(escapeLogText('lone \ud800 surrogate')).toBe('lone \\u{d800} surrogate');
  });
});
