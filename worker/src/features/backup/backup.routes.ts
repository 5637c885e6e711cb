import * as z from 'zod';
import { DomainError } from '../../core/domain/errors.js';
import { subject } from '../../http/activity.js';
import { described, rawBody, routesOf } from '../../http/route.js';
import { ARCHIVE_MEDIA_TYPE } from './archive.schema.js';

const route = routesOf('backup');

export const ImportSummarySchema = z
  .object({
    rows: z.record(z.string(), z.number().int()).describe('Rows imported, by table'),
    images: z.number().int().describe('Original image files imported'),
    accountsWithoutPassword: z
      .number()
      .int()
      .describe('Accounts imported without a password: each sets one with "Forgot password"'),
  })
  .meta({ id: 'ImportSummary' });

/** `/v1/export`, `/v1/import`: the portable archive of everything that matters (docs/backups.md). */
export const backupRoutes = [
  route({
    method: 'get',
    path: '/v1/export',
    summary: 'Export articles, sites, authors, SEO data, accounts (without secrets) and images as one archive',
    allow: 'backup.manage',
    responses: {
      200: described(
        rawBody(ARCHIVE_MEDIA_TYPE, { binary: true }),
        'gzip of NDJSON records (docs/backups.md); streamed, so an archive without its end record was cut short',
      ),
    },
    handler: (c, { services }) => {
      const stream = services.backup.exportArchive();
      c.var.audit('backup.export', subject('installation', null));
      const day = new Date().toISOString().slice(0, 10);
      return c.body(stream, 200, {
        'content-type': ARCHIVE_MEDIA_TYPE,
        'content-disposition': `attachment; filename="edge-cms-export-${day}.ndjson.gz"`,
        'cache-control': 'private, no-store',
      });
    },
  }),
  route({
    method: 'post',
    path: '/v1/import',
    summary: 'Import an archive into an installation without content (all or nothing)',
    allow: 'backup.manage',
    stream: rawBody(ARCHIVE_MEDIA_TYPE, { binary: true }),
    responses: { 200: z.object({ imported: ImportSummarySchema }) },
    errors: [409, 413],
    handler: async (c, { services }) => {
      const body = c.req.raw.body;
      if (!body)
        throw new DomainError('invalid_request', 'Send the archive as the request body', [
          { path: 'body', message: 'Send the archive as the request body' },
        ]);
      const actor = c.var.actor;
      const importer = actor.type === 'user' ? { id: actor.user.id, email: actor.user.email } : null;
      const imported = await services.backup.importArchive(body, importer);
      c.var.audit('backup.import', { ...subject('installation', null), details: { ...imported } });
      return c.json({ imported });
    },
  }),
];
