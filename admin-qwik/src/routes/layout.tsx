import { component$, Slot } from '@builder.io/qwik';
import { SiteHeader } from '../components/layout/site-header';
import { SiteNav } from '../components/layout/site-nav';

/** Every page: skip link, header (brand, colour mode), navigation, main content. */
export default component$(() => (
  <div class="shell">
    <a class="skip-link" href="#main">
      Skip to content
    </a>
    <SiteHeader />
    <SiteNav />
    <main id="main" tabIndex={-1} class="content">
      <Slot />
    </main>
  </div>
));
