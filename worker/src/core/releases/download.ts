import type { Manifest } from './manifest.js';
import { ReleaseRefusedError, refuse } from './refusal.js';
import { verifyArtifact } from './verify-manifest.js';

export interface DownloadOptions {
  /** fetch, or a stand-in (tests, a service binding). */
  fetch?: typeof fetch;
  /** Aborts the whole download (a deadline, a shutdown). */
  signal?: AbortSignal;
  /** The feed's other manifests, to name mix-and-match (verifyArtifact). */
  others?: readonly Manifest[];
}

/**
 * Downloads one artifact of a verified manifest and verifies it. Reads at
 * most the declared length: a Content-Length above it is refused before
 * the body is read, and a body that runs past it is cancelled at the first
 * chunk that crosses the line (an endless response costs at most the
 * declared length plus one chunk). The bytes are returned only when length
 * and sha256 match; otherwise ReleaseRefusedError and nothing to stage.
 */
export async function downloadArtifact(
  manifest: Manifest,
  name: string,
  url: string | URL,
  options: DownloadOptions = {},
): Promise<Uint8Array<ArrayBuffer>> {
  const artifact = manifest.artifacts.find((a) => a.name === name);
  if (!artifact) return refuse('artifact_unknown', `${manifest.version} declares no artifact ${name}`);
  const controller = new AbortController();
  const onAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  try {
    let response: Response;
    try {
      response = await (options.fetch ?? fetch)(url, { signal: controller.signal, redirect: 'follow' });
    } catch (e) {
      return refuse('download_failed', `${name}: ${(e as Error).message}`);
    }
    if (response.status !== 200 || !response.body) {
      await response.body?.cancel().catch(() => {});
      return refuse('download_failed', `${name}: the server answered ${response.status}`);
    }
    const declared = response.headers.get('content-length');
    if (declared !== null && /^\d+$/.test(declared) && Number(declared) > artifact.length) {
      controller.abort();
      await response.body.cancel().catch(() => {});
      return refuse(
        'artifact_too_long',
        `${name}: Content-Length ${declared} is above the declared ${artifact.length} bytes`,
      );
    }
    const buffer = new Uint8Array(artifact.length);
    let received = 0;
    const reader = response.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        if (received + value.byteLength > artifact.length) {
          refuse(
            'artifact_too_long',
            `${name}: the server sent more than the declared ${artifact.length} bytes; download aborted`,
          );
        }
        buffer.set(value, received);
        received += value.byteLength;
      }
    } catch (e) {
      controller.abort();
      await reader.cancel().catch(() => {});
      if (e instanceof ReleaseRefusedError) throw e;
      // A connection cut mid-body is a truncated artifact, unless our caller aborted.
      if (options.signal?.aborted) return refuse('download_failed', `${name}: aborted`);
      return refuse(
        'artifact_truncated',
        `${name}: the body ended after ${received} of ${artifact.length} bytes (${(e as Error).message})`,
      );
    }
    const bytes = received === artifact.length ? buffer : buffer.slice(0, received);
    await verifyArtifact(manifest, name, bytes, options.others);
    return bytes;
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
  }
}
