import * as z from 'zod';
import { DomainError } from '../../core/domain/errors.js';
import { subject } from '../../http/activity.js';
import { idParam } from '../../http/params.js';
import { routesOf } from '../../http/route.js';
import { IdParamSchema } from '../../wire/common.schema.js';
import { sanitizeFileName } from '../../wire/file-name.js';
import { pageOf } from '../../wire/pagination.schema.js';
import {
  AltSchema,
  CaptionSchema,
  ImageSchema,
  ImageWithVariantsSchema,
  MediaListQuerySchema,
  UpdateImageSchema,
  VariantCacheSchema,
} from './media.schema.js';
import { readUploadedFile, uploadLimit } from './upload.http.js';

/** A text field of the upload form, by the same rule as PATCH /v1/media/{id}. */
function formText(schema: z.ZodType<string, string>, field: string, value: string | undefined): string {
  const parsed = schema.safeParse(value ?? '');
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((i) => ({ path: field, message: i.message }));
  throw new DomainError('invalid_request', issues[0]!.message, issues);
}

const route = routesOf('media');
const id = { id: IdParamSchema };
const FILE_FIELD = 'file';

/** `/v1/media`: the library across articles, and the variant cache panel; uploads to an article. */
export const mediaRoutes = [
  routesOf('articles')({
    method: 'post',
    path: '/v1/articles/{id}/images',
    summary:
      'Upload an image (multipart field "file"; JPEG, PNG, WebP, GIF; optional text fields "alt" and "caption"; the file name is kept, sanitised, as originalName)',
    allow: 'media.upload',
    params: id,
    upload: FILE_FIELD,
    before: ({ articles, images }) => [
      // 404 for an unknown article before a byte of the upload is read.
      async (c, next) => {
        await articles.existing(idParam(c.req.param('id')));
        return next();
      },
      uploadLimit(images.maxUploadBytes),
    ],
    responses: { 201: z.object({ image: ImageSchema }) },
    errors: [413],
    handler: async (c, { params, services, links }) => {
      const { images } = services;
      const file = await readUploadedFile(c, FILE_FIELD, images.maxUploadBytes);
      const image = await images.upload(params.id, file.bytes, links, c.var.origin(), {
        originalName: sanitizeFileName(file.name),
        alt: formText(AltSchema, 'alt', file.text('alt')),
        caption: formText(CaptionSchema, 'caption', file.text('caption')),
      });
      return c.json({ image }, 201);
    },
  }),
  routesOf('articles')({
    method: 'put',
    path: '/v1/articles/{id}/images/{imageId}',
    summary:
      'Show an image of the library in this article too (no upload: the same file); idempotent. The article may then use it as its feature image',
    allow: 'media.upload',
    params: { id: IdParamSchema, imageId: IdParamSchema },
    before: ({ articles }) => [
      async (c, next) => {
        await articles.existing(idParam(c.req.param('id')));
        return next();
      },
    ],
    responses: { 200: z.object({ image: ImageSchema }) },
    handler: async (c, { params, services, links }) => {
      const image = await services.images.link(params.id, params.imageId, links);
      c.var.audit('image.link', { ...subject('image', image.id), details: { articleId: params.id } });
      return c.json({ image });
    },
  }),
  route({
    method: 'get',
    path: '/v1/media',
    summary: 'The media library, newest first (?articleId=, ?q=, ?sha256=)',
    allow: 'media.read',
    query: MediaListQuerySchema,
    responses: { 200: pageOf(ImageSchema) },
    handler: async (c, { query, services, links }) => c.json(await services.media.list(query, links)),
  }),
  route({
    method: 'get',
    path: '/v1/media/variants',
    summary: 'The variant cache: count, bytes, presets',
    allow: 'media.read',
    responses: { 200: VariantCacheSchema },
    handler: async (c, { services }) => c.json(await services.variants.stats()),
  }),
  route({
    method: 'delete',
    path: '/v1/media/variants',
    summary: 'Empty the variant cache (originals untouched)',
    allow: 'media.manage',
    responses: { 204: null },
    handler: async (c, { services }) => {
      await services.variants.clearAll();
      c.var.audit('media.variants.clear', subject('variants', null));
      return c.body(null, 204);
    },
  }),
  route({
    method: 'get',
    path: '/v1/media/{id}',
    summary: 'One image with its variants',
    allow: 'media.read',
    params: id,
    responses: { 200: z.object({ image: ImageWithVariantsSchema }) },
    handler: async (c, { params, services, links }) => c.json({ image: await services.media.get(params.id, links) }),
  }),
  route({
    method: 'patch',
    path: '/v1/media/{id}',
    summary: 'Edit an image’s words: originalName (the download name), alt, caption',
    allow: 'media.manage',
    params: id,
    body: UpdateImageSchema,
    responses: { 200: z.object({ image: ImageSchema }) },
    handler: async (c, { params, body, services, links }) => {
      const image = await services.media.update(params.id, body, links);
      const fields = Object.keys(body).filter((k) => body[k as keyof typeof body] !== undefined);
      // A patch that names no field changes nothing, and is no activity either.
      if (fields.length > 0) c.var.audit('image.update', { ...subject('image', image.id), details: { fields } });
      return c.json({ image });
    },
  }),
  route({
    method: 'delete',
    path: '/v1/media/{id}',
    summary: 'Delete an image, its variants and cached copies',
    allow: 'media.manage',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.media.delete(params.id, c.var.origin());
      return c.body(null, 204);
    },
  }),
  route({
    method: 'delete',
    path: '/v1/media/{id}/variants',
    summary: 'Drop one image’s variants',
    allow: 'media.manage',
    params: id,
    responses: { 204: null },
    handler: async (c, { params, services }) => {
      await services.media.clearVariants(params.id);
      c.var.audit('image.variants.clear', subject('image', params.id));
      return c.body(null, 204);
    },
  }),
];
