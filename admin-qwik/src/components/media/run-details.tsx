import { component$ } from '@builder.io/qwik';
import { formatBytes } from '../../lib/format';
import { type PurgeRunDto, removedCount } from '../../lib/purge';

/** Exactly what a run removed (or would remove): every file, with its size. */
export const RunDetails = component$((props: { run: PurgeRunDto }) => {
  const r = props.run.removed;
  if (removedCount(props.run) === 0) return <p>Nothing {props.run.dryRun ? 'would be' : 'was'} removed.</p>;
  return (
    <div class="run-details">
      {r.duplicates.length > 0 && (
        <>
          <h4>Duplicates (folded into the older copy with the same bytes)</h4>
          <ul class="plain-list">
            {r.duplicates.map((d) => (
              <li key={d.imageId}>
                <code>{d.filename}</code> → kept <code>{d.survivorFilename}</code> ({formatBytes(d.bytes)})
              </li>
            ))}
          </ul>
        </>
      )}
      {r.orphanBlobs.length > 0 && (
        <>
          <h4>Stored files no image refers to</h4>
          <ul class="plain-list">
            {r.orphanBlobs.map((o) => (
              <li key={o.key}>
                <code>{o.key}</code> ({formatBytes(o.bytes)})
              </li>
            ))}
          </ul>
        </>
      )}
      {r.rowsWithoutBlob.length > 0 && (
        <>
          <h4>Images whose file is missing</h4>
          <ul class="plain-list">
            {r.rowsWithoutBlob.map((o) => (
              <li key={o.imageId}>
                <code>{o.filename}</code> ({formatBytes(o.bytes)})
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
});
