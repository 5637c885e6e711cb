import { rawBody, routesOf } from '../../http/route.js';
import { pageOf } from '../../wire/pagination.schema.js';
import {
  type ActivityEntryDto,
  ActivityEntrySchema,
  ActivityExportQuerySchema,
  ActivityFilterSchema,
  ActivityListQuerySchema,
  ActivitySummarySchema,
} from './activity.schema.js';
import { csvHeader, csvRow, ndjsonRow } from './export-format.js';

const FORMATS = {
  csv: { type: 'text/csv; charset=utf-8', header: csvHeader(), row: csvRow },
  ndjson: { type: 'application/x-ndjson; charset=utf-8', header: '', row: ndjsonRow },
} as const;

const route = routesOf('activity');

/** `/v1/activity`: the activity log, its summary and its export (docs/api.md#activity-log). */
export const activityRoutes = [
  route({
    method: 'get',
    path: '/v1/activity',
    summary: 'The activity log, newest first (?action=, ?actorId=, ?from=, ?to=)',
    allow: 'activity.read',
    query: ActivityListQuerySchema,
    responses: { 200: pageOf(ActivityEntrySchema) },
    handler: async (c, { query, services }) => c.json(await services.activity.list(query)),
  }),
  route({
    method: 'get',
    path: '/v1/activity/summary',
    summary: 'Counts by action, actor and UTC day over ?from=&to=, and the log’s size and bound',
    allow: 'activity.read',
    query: ActivityFilterSchema,
    responses: { 200: ActivitySummarySchema },
    handler: async (c, { query, services }) => c.json(await services.activity.summary(query)),
  }),
  route({
    method: 'get',
    path: '/v1/activity/export',
    summary: 'The matching entries as a streamed download (?format=csv|ndjson, default ndjson)',
    allow: 'activity.read',
    query: ActivityExportQuerySchema,
    responses: { 200: rawBody(['application/x-ndjson', 'text/csv']) },
    handler: async (c, { query: { format, ...filter }, services }) => {
      const { type, header, row } = FORMATS[format];
      const pages = services.activity.entries(filter);
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
    },
  }),
];
