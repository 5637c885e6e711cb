import { component$ } from '@builder.io/qwik';
import { type DocumentHead, Link } from '@builder.io/qwik-city';

/** Written to dist/404.html; servers answer it for unknown files. */
export default component$(() => (
  <>
    <h1>Page not found</h1>
    <p>There is nothing at this address.</p>
    <p>
      <Link href="/">Back to the dashboard</Link>
    </p>
  </>
));

export const head: DocumentHead = { title: 'Page not found' };
