import { multipart, must, type RawResponse, send } from './http.ts';
import { lastCode } from './stack.ts';

const PNG_1x1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);

/** What the fixtures read of the answers: the id of what was made. */
type Made<K extends string> = { [key in K]: { id: string } };

export async function uploadPng(
  origin: string,
  token: string,
  articleId: string,
  png: Uint8Array = PNG_1x1,
  timeoutMs = 15_000,
): Promise<RawResponse> {
  const m = multipart(png, { filename: 'pixel.png', type: 'image/png' });
  return send(origin, {
    method: 'POST',
    path: `/v1/articles/${articleId}/images`,
    headers: { authorization: `Bearer ${token}`, 'content-type': m.contentType },
    body: m.body,
    timeoutMs,
  });
}

/**
 * One of everything the fuzzer can aim its path parameters at: a site, an
 * author, an online and an offline article, an image, an admin (invited and
 * accepted) and a pending invitation.
 */
export interface Fixtures {
  siteId: string;
  authorId: string;
  articleId: string;
  offlineArticleId: string;
  imageId: string;
  filename: string;
  adminId: string;
  invitationId: string;
}

export async function createFixtures(server: { url: string; log(): string }, token: string): Promise<Fixtures> {
  const o = server.url;
  const site = (
    await must<Made<'site'>>(o, 'POST', '/v1/sites', 201, {
      token,
      body: { name: 'Reliability', baseUrl: 'https://example.com' },
    })
  ).site;
  const author = (
    await must<Made<'author'>>(o, 'POST', '/v1/authors', 201, { token, body: { name: 'Ada', slug: 'ada' } })
  ).author;
  const article = (
    await must<Made<'article'>>(o, 'POST', '/v1/articles', 201, {
      token,
      body: { title: 'Online', body: '# hi', siteId: site.id, authorIds: [author.id] },
    })
  ).article;
  await must(o, 'POST', `/v1/articles/${article.id}/publish`, 200, { token });
  const offline = (await must<Made<'article'>>(o, 'POST', '/v1/articles', 201, { token, body: { title: 'Offline' } }))
    .article;
  const up = await uploadPng(o, token, article.id);
  if (up.status !== 201) throw new Error(`fixture upload: ${up.status} ${up.body.toString('utf8').slice(0, 200)}`);
  const { image }: { image: { id: string; filename: string } } = JSON.parse(up.body.toString('utf8'));
  await must(o, 'POST', '/v1/user/invite', 201, { token, body: { email: 'admin@reliability.test', role: 'admin' } });
  const code = lastCode(server.log(), '/accept-invite');
  const admin = (
    await must<Made<'user'>>(o, 'POST', '/v1/auth/invitation/accept', 201, {
      body: { code, password: 'reliability admin password' },
    })
  ).user;
  const invitation = (
    await must<Made<'invitation'>>(o, 'POST', '/v1/user/invite', 201, {
      token,
      body: { email: 'pending@reliability.test', role: 'admin' },
    })
  ).invitation;
  return {
    siteId: site.id,
    authorId: author.id,
    articleId: article.id,
    offlineArticleId: offline.id,
    imageId: image.id,
    filename: image.filename,
    adminId: admin.id,
    invitationId: invitation.id,
  };
}
