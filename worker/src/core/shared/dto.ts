import type { InvitationDto, PublicUserDto } from '../../features/accounts/user.schema.js';
import type { ArticleDto, ImageDto } from '../../features/articles/article.schema.js';
import type { Article, Image, Invitation, User } from '../domain/entities.js';

/** Domain → wire. Only public fields leave; everything else stays behind. */

export const IMAGE_URL_PREFIX = '/static/uploadedImages/';

export function toPublicUser(u: User): PublicUserDto {
  return {
    id: u.id,
    email: u.email,
    displayName: u.displayName,
    role: u.role,
    verified: u.verified,
    createdAt: u.createdAt.toISOString(),
  };
}

export function toImageDto(i: Image): ImageDto {
  return {
    id: i.id,
    articleId: i.articleId,
    filename: i.filename,
    url: IMAGE_URL_PREFIX + i.filename,
    contentType: i.contentType,
    bytes: i.bytes,
    width: i.width,
    height: i.height,
    sha256: i.sha256,
    createdAt: i.createdAt.toISOString(),
  };
}

export function toArticleDto(a: Article, images: Image[]): ArticleDto {
  return {
    id: a.id,
    title: a.title,
    body: a.body,
    format: a.format,
    status: a.status,
    siteId: a.siteId,
    authorIds: a.authorIds,
    createdAt: a.createdAt.toISOString(),
    updatedAt: a.updatedAt.toISOString(),
    publishedAt: a.publishedAt ? a.publishedAt.toISOString() : null,
    seo: { ...a.seo },
    images: images.map(toImageDto),
  };
}

/** Never the code or its hash: the code travels only in the e-mail. */
export function toInvitationDto(i: Invitation): InvitationDto {
  return {
    id: i.id,
    email: i.email,
    role: i.role,
    expiresAt: i.expiresAt.toISOString(),
    createdAt: i.createdAt.toISOString(),
  };
}
