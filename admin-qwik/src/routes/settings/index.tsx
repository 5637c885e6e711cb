import { $, component$, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import type { DocumentHead } from '@builder.io/qwik-city';
import { BackupPanel } from '../../components/settings/backup-panel';
import { UpdatePanel } from '../../components/settings/update-panel';
import { ErrorNotice } from '../../components/status/error-notice';
import { LoadingNotice } from '../../components/status/loading-notice';
import { formatDateTime } from '../../lib/format';
import { type Remote, toRemote } from '../../lib/remote';
import type { VersionDto } from '../../lib/system';
import { fetchVersion } from '../../lib/system-api';

const TARGET_NAMES: Record<VersionDto['target'], string> = {
  workers: 'Cloudflare Workers',
  node: 'Node.js',
};

/**
 * Settings: the running build's version, read from the API in the browser
 * (the HTML is static, so the server that answers is the one to ask), the
 * update panel, and (owner) export and import.
 */
export default component$(() => {
  const attempt = useSignal(0);
  const version = useSignal<Remote<VersionDto>>({ state: 'loading' });

  useVisibleTask$(
    ({ track, cleanup }) => {
      track(() => attempt.value);
      const controller = new AbortController();
      cleanup(() => controller.abort());
      version.value = { state: 'loading' };
      void fetchVersion(controller.signal).then((result) => {
        if (!controller.signal.aborted) version.value = toRemote(result);
      });
    },
    { strategy: 'document-ready' },
  );

  const retry = $(() => {
    attempt.value++;
  });

  const v = version.value;
  return (
    <>
      <h1>Settings</h1>
      <section class="card" aria-labelledby="about-heading">
        <h2 id="about-heading">About this build</h2>
        <div aria-live="polite" aria-busy={v.state === 'loading'}>
          {v.state === 'loading' && <LoadingNotice>Loading version…</LoadingNotice>}
          {v.state === 'error' && (
            <ErrorNotice message={v.message} onRetry$={retry}>
              The version could not be loaded.
            </ErrorNotice>
          )}
          {v.state === 'ready' && (
            <>
              <p class="version" data-testid="version">
                Version {v.data.version}
              </p>
              <dl class="facts">
                <dt>Commit</dt>
                <dd>
                  <code>{v.data.commit}</code>
                </dd>
                <dt>Built</dt>
                <dd>
                  <time dateTime={v.data.builtAt} title={v.data.builtAt}>
                    {formatDateTime(v.data.builtAt)}
                  </time>
                </dd>
                <dt>Runs on</dt>
                <dd data-target={v.data.target}>{TARGET_NAMES[v.data.target]}</dd>
              </dl>
            </>
          )}
        </div>
      </section>
      <UpdatePanel />
      <BackupPanel />
    </>
  );
});

export const head: DocumentHead = { title: 'Settings' };
