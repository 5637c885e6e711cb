import { describe, expect, it } from 'vitest';
import { createLogMailer, linksIn } from '../../worker/src/adapters/mail/log.mailer.js';
import { createJsonLogger } from '../../worker/src/adapters/runtime/json-logger.js';

function capture() {
  const lines: string[] = [];
  return { lines, mailer: createLogMailer(createJsonLogger((line) => lines.push(line))) };
}

describe('log mailer', () => {
  it('writes one JSON line: recipient, subject, the links and the text part', async () => {
    const { lines, mailer } = capture();
    await mailer.send({
      to: 'ada@example.test',
      subject: 'Verify your e-mail address',
      text: 'Hello Ada,\n\nOpen http://localhost:8787/verify?code=abc123_-XYZ to verify.\r\nThanks',
      html: '<p>never logged</p>',
    });
    expect(lines).toHaveLength(1);
    const record = JSON.parse(lines[0]!);
    expect(record).toMatchObject({
      level: 'info',
      to: 'ada@example.test',
      subject: 'Verify your e-mail address',
      links: ['http://localhost:8787/verify?code=abc123_-XYZ'],
      text: 'Hello Ada,\n\nOpen http://localhost:8787/verify?code=abc123_-XYZ to verify.\r\nThanks',
    });
    expect(lines[0]).not.toContain('never logged');
  });

  it('keeps a verification link intact and copyable', async () => {
    const { lines, mailer } = capture();
    const link = 'http://localhost:8787/verify?code=Zm9v%2Bbar&x=1#frag';
    await mailer.send({ to: 'a@b.test', subject: 's', text: `Open ${link}.`, html: '' });
    expect(lines[0]).toContain(`"links":["${link}"]`);
    expect(linksIn(`a ${link} b`)).toEqual([link]);
  });

  it('cannot forge or rewrite a log line: one line, controls and bidi escaped, values intact', async () => {
    const { lines, mailer } = capture();
    const message = {
      to: 'eve@example.test\n{"level":"error","message":"FAKE admin login"}',
      subject: 'Hi"\u001b[2J\u0000\u202e\u0085',
      text: 'line one\u001b[31m red\u0007\tTab\u2028sep lone \ud800 surrogate',
      html: '',
    };
    await mailer.send(message);
    expect(lines).toHaveLength(1);
    expect(lines[0]).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e]/u);
    const record = JSON.parse(lines[0]!);
    expect(record.to).toBe(message.to);
    expect(record.subject).toBe(message.subject);
    expect(record.text).toBe(message.text);
  });
});
