import { type Consequences, joinConsequences } from '../../ports/unit-of-work.js';
import type { WriteEffects, WriteOrigin } from '../../ports/write-effects.js';
import type { ImageDto } from './media.schema.js';

/** What an image write did: what its activity entry and webhook event are made from. */
export type ImageChange = { kind: 'uploaded'; image: ImageDto } | { kind: 'deleted'; id: string };

/** The activity entry and webhook event of an image change, to commit with it (ports/unit-of-work.ts). */
export async function imageConsequences(
  ports: WriteEffects,
  change: ImageChange,
  by: WriteOrigin,
): Promise<Consequences> {
  const id = change.kind === 'uploaded' ? change.image.id : change.id;
  const subject = { type: 'image', id };
  const [entry, event] =
    change.kind === 'uploaded'
      ? await Promise.all([
          ports.activity({
            actor: by.actor,
            action: 'image.upload',
            subject,
            ip: by.ip,
            details: { articleId: change.image.articleId, filename: change.image.filename, bytes: change.image.bytes },
          }),
          ports.webhook('image.uploaded', change.image, { defer: by.defer }),
        ])
      : await Promise.all([
          ports.activity({ actor: by.actor, action: 'image.delete', subject, ip: by.ip, details: null }),
          ports.webhook('image.deleted', { id }, { defer: by.defer }),
        ]);
  return joinConsequences(entry, event);
}
