import * as z from 'zod';
import { routesOf } from '../../http/route.js';
import { HealthSchema, ReadySchema, VersionSchema } from './system.schema.js';

const route = routesOf('system');

/** Health, readiness, the running build and this API's description. */
export const systemRoutes = [
  route({
    method: 'get',
    path: '/healthz',
    summary: 'The process serves',
    allow: 'public',
    responses: { 200: HealthSchema },
    handler: (c) => c.json({ ok: true } as const),
  }),
  route({
    method: 'get',
    path: '/readyz',
    summary: 'Database and storage answer',
    allow: 'public',
    responses: { 200: ReadySchema, 503: ReadySchema },
    handler: async (c, { services }) => {
      const ready = await services.system.ready();
      return ready.ok ? c.json(ready, 200) : c.json(ready, 503);
    },
  }),
  route({
    method: 'get',
    path: '/v1/system/version',
    summary: 'The running build',
    allow: 'public',
    responses: { 200: VersionSchema },
    handler: (c, { services }) => c.json(services.system.version),
  }),
  route({
    method: 'get',
    path: '/v1/openapi.json',
    summary: 'This description',
    allow: 'public',
    responses: { 200: z.record(z.string(), z.unknown()) },
    handler: (c, { services }) => c.json(services.apiDescription.document()),
  }),
];
