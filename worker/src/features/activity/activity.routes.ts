import { Hono } from 'hono';
import type { AppEnv } from '../../http/env.js';
import { allow } from '../../http/middleware/auth.js';
import { validate } from '../../http/validate.js';
import {
  type ActivityEntryDto,
  ActivityExportQuerySchema,
  ActivityFilterSchema,
  ActivityListQuerySchema,
} from './activity.schema.js';
import { csvHeader, csvRow, ndjsonRow } from './export-format.js';

const FORMATS = {
  csv: { type: 'text/csv; charset=utf-8', header: csvHeader(), row: csvRow },
  ndjson: { type: 'application/x-ndjson; charset=utf-8', header: '', row: ndjsonRow },
} as const;

/** `/v1/activity` (docs/api.md#activity-log). */
export const activityRoutes = new Hono<AppEnv>()
  .get('/', allow('activity.read'), validate('query', ActivityListQuerySchema), async (c) =>
    c.json(await c.var.services.activity.list(c.req.valid('query'))),
  )
  .get('/summary', allow('activity.read'), validate('query', ActivityFilterSchema), async (c) =>
    c.json(await c.var.services.activity.summary(c.req.valid('query'))),
  )
  .get('/export', allow('activity.read'), validate('query', ActivityExportQuerySchema), async (c) => {
    const { format, ...filter } = c.req.valid('query');
    const { type, header, row } = FORMATS[format];
    const pages = c.var.services.activity.entries(filter);
    // The first page is read before answering: a database that is down is a
    // 503, not a 200 cut short. Later pages stream, one in memory at a time.
    const first = await pages.next();
    const encoder = new TextEncoder();
    const encode = (batch: ActivityEntryDto[]) => encoder.encode(batch.map(row).join(''));
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        if (header) controller.enqueue(encoder.encode(header));
        if (first.done) controller.close();
        else controller.enqueue(encode(first.value));
      },
      async pull(controller) {
        const next = await pages.next();
        if (next.done) controller.close();
        else controller.enqueue(encode(next.value));
      },
      async cancel() {
        await pages.return(undefined);
      },
    });
    const day = new Date().toISOString().slice(0, 10);
    // Through the context, so the security headers prepared for it apply.
    return c.body(body, 200, {
      'content-type': type,
      'content-disposition': `attachment; filename="activity-${day}.${format}"`,
      'cache-control': 'no-store',
    });
  });
