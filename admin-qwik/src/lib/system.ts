import type { VersionDto } from '../../../worker/src/features/system/system.schema';
import { isRecord } from './result';

export type { VersionDto };

/** Body of GET /readyz (200 when ready, 503 when not; same shape). */
export interface Readiness {
  ok: boolean;
  checks: Record<string, boolean>;
}

export function isVersion(body: unknown): body is VersionDto {
  return (
    isRecord(body) &&
    typeof body.version === 'string' &&
    typeof body.commit === 'string' &&
    typeof body.builtAt === 'string' &&
    (body.target === 'workers' || body.target === 'node')
  );
}

export function isReadiness(body: unknown): body is Readiness {
  return (
    isRecord(body) &&
    typeof body.ok === 'boolean' &&
    isRecord(body.checks) &&
    Object.values(body.checks).every((v) => typeof v === 'boolean')
  );
}
