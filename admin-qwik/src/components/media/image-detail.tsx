import { component$, type QRL } from '@builder.io/qwik';
import { formatBytes, formatDateTime } from '../../lib/format';
import { type ApiAnswer, call } from '../../lib/typed-api';
import { ConfirmButton } from '../ui/confirm-button';
import { ImageWords, type SavedImage } from './image-words';

/** GET /v1/media/{id}: the image and its stored variants. */
export type ImageDetailDto = ApiAnswer<'/v1/media/{id}', 'get'>['image'];

interface Props {
  image: ImageDetailDto;
  onClose$: QRL<() => void>;
  onSaved$: QRL<(image: SavedImage) => void>;
  onDeleted$: QRL<(id: string, filename: string) => void>;
  onError$: QRL<(message: string) => void>;
}

/** One image of the library: its name and words (editable), facts, variants, delete. Close (or Escape, handled by the page) goes back. */
export const ImageDetail = component$((props: Props) => {
  const d = props.image;
  return (
    <section class="card" aria-labelledby="detail-heading" data-testid="media-detail">
      <h2 id="detail-heading" tabIndex={-1}>
        {d.originalName ?? d.filename}
      </h2>
      <img class="detail-image" src={d.url} alt={d.alt} width={d.width} height={d.height} />
      {d.caption && <p class="detail-caption">{d.caption}</p>}
      <ImageWords image={d} onSaved$={props.onSaved$} />
      <dl class="facts">
        <dt>Size</dt>
        <dd>
          {d.width}×{d.height}, {formatBytes(d.bytes)} ({d.contentType})
        </dd>
        <dt>Stored as</dt>
        <dd>
          <code>{d.filename}</code>
        </dd>
        <dt>Uploaded</dt>
        <dd>{formatDateTime(d.createdAt)}</dd>
        <dt>Address</dt>
        <dd>
          <code>{d.url}</code>
        </dd>
      </dl>
      <h3>Variants</h3>
      {d.variants.length === 0 ? (
        <p>No variants made yet (they are made on first request).</p>
      ) : (
        <table class="table">
          <thead>
            <tr>
              <th scope="col">Width</th>
              <th scope="col">Type</th>
              <th scope="col">Size</th>
              <th scope="col">Address</th>
            </tr>
          </thead>
          <tbody>
            {d.variants.map((v) => (
              <tr key={v.url}>
                <td>{v.requestedWidth ?? 'full'}</td>
                <td>{v.contentType}</td>
                <td>{formatBytes(v.bytes)}</td>
                <td>
                  <code>{v.url}</code>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div class="actions">
        <button type="button" class="button" onClick$={props.onClose$} aria-keyshortcuts="Escape">
          Close
        </button>
        {/* ?download=1: the server sends it as an attachment under the name it was uploaded with. */}
        <a class="button" href={`${d.url}?download=1`} download>
          Download original
        </a>
        <ConfirmButton
          label="Delete image"
          question={`Delete ${d.originalName ?? d.filename} and its variants?`}
          confirmLabel="Yes, delete"
          danger
          onConfirm$={async () => {
            const res = await call('delete', '/v1/media/{id}', { path: { id: d.id } });
            if (!res.ok) {
              await props.onError$(res.message);
              return;
            }
            await props.onDeleted$(d.id, d.originalName ?? d.filename);
          }}
        />
      </div>
    </section>
  );
});
