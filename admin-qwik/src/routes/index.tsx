import { $, component$, useContext, useSignal, useVisibleTask$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';
import { ArticleOverview } from '../components/dashboard/article-overview';
import { IconAlert, IconCheck } from '../components/icons/icons';
import { ErrorNotice } from '../components/status/error-notice';
import { LoadingNotice } from '../components/status/loading-notice';
import { PRODUCT_NAME } from '../lib/product';
import { type Remote, toRemote } from '../lib/remote';
import { SCREENS } from '../lib/screens';
import { SessionContext } from '../lib/session';
import type { Readiness } from '../lib/system';
import { fetchReadiness } from '../lib/system-api';

/** Dashboard: the articles to get back to (drafts, scheduled, recent) and a New article button, the screens, and whether the API is up. */
export default component$(() => {
  const session = useContext(SessionContext);
  const attempt = useSignal(0);
  const health = useSignal<Remote<Readiness>>({ state: 'loading' });

  useVisibleTask$(
    ({ track, cleanup }) => {
      track(() => attempt.value);
      const controller = new AbortController();
      cleanup(() => controller.abort());
      health.value = { state: 'loading' };
      void fetchReadiness(controller.signal).then((result) => {
        if (!controller.signal.aborted) health.value = toRemote(result);
      });
    },
    { strategy: 'document-ready' },
  );

  const retry = $(() => {
    attempt.value++;
  });

  const h = health.value;
  return (
    <>
      <h1>{PRODUCT_NAME}</h1>
      <p class="lede">Administration for articles, media, users and integrations.</p>
      <ArticleOverview />

      <section class="card" aria-labelledby="health-heading">
        <h2 id="health-heading">API health</h2>
        <div aria-live="polite" aria-busy={h.state === 'loading'} data-testid="health">
          {h.state === 'loading' && <LoadingNotice>Checking the API…</LoadingNotice>}
          {h.state === 'error' && (
            <ErrorNotice message={h.message} onRetry$={retry}>
              The API could not be checked.
            </ErrorNotice>
          )}
          {h.state === 'ready' && (
            <>
              <p class={['health', h.data.ok ? 'health-ok' : 'health-bad']}>
                {h.data.ok ? <IconCheck /> : <IconAlert />}
                <span>{h.data.ok ? 'API ready' : 'API not ready'}</span>
              </p>
              <ul class="checks">
                {Object.entries(h.data.checks).map(([name, ok]) => (
                  <li key={name}>
                    {name}: <strong>{ok ? 'ok' : 'unreachable'}</strong>
                  </li>
                ))}
              </ul>
            </>
          )}
        </div>
      </section>

      <section aria-labelledby="screens-heading">
        <h2 id="screens-heading">Screens</h2>
        <ul class="screen-grid">
          {SCREENS.filter((s) => s.href !== '/' && (!s.ownerOnly || session.user?.role === 'owner')).map((s) => (
            <li key={s.href}>
              <Link href={s.href} class="screen-card">
                <s.icon size={24} />
                <span class="screen-card-title">{s.label}</span>
                <span class="screen-card-summary">{s.summary}</span>
                {!s.ready && <span class="badge">Coming soon</span>}
              </Link>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
});

export const head: DocumentHead = { title: 'Dashboard' };
