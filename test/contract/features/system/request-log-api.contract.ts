import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createArticle, registerOwner } from '../../../support/api-flows.js';
import { type ApiHarness, type SetupApi, TEST_PEER_HEADER } from '../../../support/api-harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const PROXY = '192.0.2.10';

type LogRecord = Record<string, unknown> & { level: string; message: string; requestId?: string };
const records = (lines: string[]): LogRecord[] => lines.map((line) => JSON.parse(line) as LogRecord);
const accessLines = (api: ApiHarness, requestId: string) =>
  records(api.logLines).filter((r) => r.message === 'request' && r.requestId === requestId);

/** Request ids, access lines and LOG_LEVEL (docs/configuration.md#logs): the same on both targets. */
export function runRequestLogApiContract(name: string, setup: SetupApi) {
  describe(`request ids and access lines (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup({ TRUST_PROXY: `${PROXY}/32`, LOG_LEVEL: 'debug' });
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('gives every kind of answer its own X-Request-Id, and writes one access line for it', async () => {
      const cases: [string, string, number, string][] = [
        ['GET', '/v1/system/version', 200, '/v1/system/version'],
        ['HEAD', '/v1/system/version', 200, '/v1/system/version'],
        ['GET', '/v1/no-such-route', 404, '/v1/*'],
        ['GET', '/v1/articles?limit=0', 400, '/v1/articles'],
        ['GET', '/v1/auth/me', 401, '/v1/auth/me'],
        ['GET', '/v1/articles/not-an-id', 404, '/v1/articles/{id}'],
        ['GET', '/', 200, '/*'],
        ['GET', '/healthz', 200, '/healthz'],
      ];
      const seen = new Set<string>();
      for (const [method, path, status, route] of cases) {
        const res = await api.request(path, { method });
        const label = `${method} ${path}`;
        expect(res.status, label).toBe(status);
        const id = res.headers.get('x-request-id') ?? '';
        expect(id, label).toMatch(UUID);
        expect(seen.has(id), label).toBe(false);
        seen.add(id);
        const lines = accessLines(api, id);
        expect(lines, label).toHaveLength(1);
        // Where no declared route answered, the route is the catch-all's: `/v1/*`, or `/*` (the admin's files).
        expect(lines[0], label).toMatchObject({ level: path === '/healthz' ? 'debug' : 'info', method, route, status });
        expect(typeof lines[0]!.durationMs, label).toBe('number');
      }
    });

    it('answers a preflight with an id too', async () => {
      const res = await api.request('/v1/articles', {
        method: 'OPTIONS',
        headers: { origin: 'https://elsewhere.example', 'access-control-request-method': 'GET' },
      });
      expect(res.status).toBe(204);
      expect(res.headers.get('x-request-id')).toMatch(UUID);
    });

    it('never writes the path, query, tokens or codes: only the route as declared', async () => {
      const owner = await registerOwner(api, 'logs@example.com');
      const code = 'a-made-up-code-0123456789';
      const before = api.logLines.length;
      const verify = await api.request('/v1/auth/verify?code=QUERYSECRET', { method: 'POST', json: { code } });
      expect(verify.status).toBe(400);
      const article = await createArticle(api, owner.token, { title: 'Logged' });
      const read = await api.request(`/v1/articles/${article.id}?token=QUERYSECRET`, { token: owner.token });
      expect([200, 400]).toContain(read.status);
      const written = api.logLines.slice(before).join('\n');
      for (const secret of ['QUERYSECRET', code, owner.token, article.id]) expect(written).not.toContain(secret);
      const line = accessLines(api, read.headers.get('x-request-id')!)[0]!;
      expect(line.route).toBe('/v1/articles/{id}');
    });

    it('names the request in the lines written while it was handled, deferred e-mail included', async () => {
      // The owner registered in the test before; the reset e-mail is sent after the answer.
      const res = await api.request('/v1/auth/password-reset', { method: 'POST', json: { email: 'logs@example.com' } });
      expect(res.status).toBe(202);
      const id = res.headers.get('x-request-id');
      const mail = records(api.mailLog).filter((r) => r.to === 'logs@example.com' && r.requestId === id);
      expect(mail).toHaveLength(1);
      expect(mail[0]!.requestId).toBe(id);
    });

    it('takes the id a trusted proxy sent, and no one else’s', async () => {
      const from = (peer: string, requestId: string) =>
        api.request('/v1/system/version', { headers: { [TEST_PEER_HEADER]: peer, 'x-request-id': requestId } });
      const trusted = await from(PROXY, 'lb-7f3a.0042:trace=9');
      expect(trusted.headers.get('x-request-id')).toBe('lb-7f3a.0042:trace=9');
      expect(accessLines(api, 'lb-7f3a.0042:trace=9')).toHaveLength(1);
      // A client's own header is replaced; so is a proxy's that could break a line or a header.
      expect((await from('198.51.100.4', 'chosen-by-client')).headers.get('x-request-id')).toMatch(UUID);
      for (const bad of ['two words', 'x'.repeat(129), 'a"b', 'line\\nbreak']) {
        expect((await from(PROXY, bad)).headers.get('x-request-id'), bad).toMatch(UUID);
      }
    });
  });

  describe(`LOG_LEVEL (${name})`, () => {
    let api: ApiHarness;
    beforeAll(async () => {
      api = await setup({ LOG_LEVEL: 'warn' });
    });
    afterAll(async () => {
      await api?.cleanup();
    });

    it('at warn writes no access lines, yet every answer still has its id', async () => {
      const res = await api.request('/v1/system/version');
      expect(res.headers.get('x-request-id')).toMatch(UUID);
      expect(records(api.logLines).filter((r) => r.level === 'info' || r.level === 'debug')).toEqual([]);
    });
  });
}
