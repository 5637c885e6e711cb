import { component$, type NoSerialize, type QRL } from '@builder.io/qwik';

/** One file on its way to the server. */
export interface UploadItem {
  /** Stable for the page's life: rows are dismissed, so an index would shift. */
  id: number;
  name: string;
  percent: number;
  state: 'shrinking' | 'uploading' | 'done' | 'failed' | 'cancelled';
  error: string | null;
  /** Original and uploaded size when the file was large (`3000×2000, 2.1 MiB → 2560×1707, 900.0 KiB`). */
  sizes: string | null;
  /** Kept for Retry; browser objects, never part of the page's serialised state. */
  file: NoSerialize<File>;
  controller: NoSerialize<AbortController>;
}

const WORDS: Record<UploadItem['state'], string> = {
  shrinking: 'Shrinking…',
  uploading: '',
  done: 'Uploaded',
  failed: 'Failed',
  cancelled: 'Cancelled',
};

export const isActive = (u: Pick<UploadItem, 'state'>): boolean => u.state === 'shrinking' || u.state === 'uploading';

/**
 * The upload rows: a progress bar while a file is shrunk or sent (with
 * Cancel), and once it has failed or was cancelled no bar at all (a
 * half-filled one would read as "still going") but the reason, Retry and
 * Dismiss.
 */
export const UploadList = component$(
  (props: {
    items: UploadItem[];
    onCancel$: QRL<(id: number) => void>;
    onRetry$: QRL<(id: number) => void>;
    onDismiss$: QRL<(id: number) => void>;
  }) => (
    <ul class="uploads" aria-label="Uploads">
      {props.items.map((u) => (
        <li key={u.id} data-testid="upload" data-state={u.state}>
          <span id={`upload-name-${u.id}`} class="upload-name">
            {u.name}
          </span>
          {(isActive(u) || u.state === 'done') && (
            <progress
              aria-labelledby={`upload-name-${u.id}`}
              max={100}
              value={u.percent}
              aria-valuetext={`${u.percent}%`}
            />
          )}
          <span class="upload-state">{`${WORDS[u.state] || `${u.percent}%`}`}</span>
          {/* Always there, one text: a span that came and went kept its first text in a re-render. */}
          <span class="upload-sizes" data-testid="upload-sizes" hidden={!u.sizes}>
            {`${u.sizes ?? ''}`}
          </span>
          <span class="field-error upload-error" role="alert" hidden={!u.error}>
            {`${u.error ?? ''}`}
          </span>
          <span class="upload-actions">
            {isActive(u) && (
              <button
                type="button"
                class="button button-quiet"
                aria-label={`Cancel upload of ${u.name}`}
                onClick$={() => props.onCancel$(u.id)}
              >
                Cancel
              </button>
            )}
            {(u.state === 'failed' || u.state === 'cancelled') && (
              <>
                <button
                  type="button"
                  class="button"
                  aria-label={`Retry upload of ${u.name}`}
                  onClick$={() => props.onRetry$(u.id)}
                >
                  Retry
                </button>
                <button
                  type="button"
                  class="button button-quiet"
                  aria-label={`Dismiss ${u.name}`}
                  onClick$={() => props.onDismiss$(u.id)}
                >
                  Dismiss
                </button>
              </>
            )}
          </span>
        </li>
      ))}
    </ul>
  ),
);
